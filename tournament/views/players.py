"""Directors: merging two rows of the player database that are one person; everything held
about one person (GDPR Art. 15)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ..domain.players import merge_players, possible_duplicates
from ..errors import DomainError
from ..exports import downloads
from ..exports.export import download
from ..forms.players import MergeForm
from ..permissions import (
    changeable_players,
    director_required,
    get_managed_tournament,
    managed_tournaments,
)
from ..queries.personal_data import personal_data
from ..tasks.mail import RequestMailer


@director_required
def player_merge(request, slug):
    # Merging changes players, not the tournament: allowed from a published copy's pages too.
    tournament = get_managed_tournament(request, slug, replica_ok=True)
    players = changeable_players(request.user)  # the field sorts them (German order)
    if request.method == "POST":
        form = MergeForm(request.POST, players=players)
    else:
        # A suggestion's link fills in the two players; nothing happens before the POST.
        form = MergeForm(initial=request.GET.dict(), players=players)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            drop_name = data["drop"].full_name
            mail = RequestMailer(request)
            try:
                keep = merge_players(
                    data["keep"],
                    data["drop"],
                    user=request.user,
                    reason=data["reason"],
                    mail=mail,
                )
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(
                    request,
                    _("%(drop)s merged into %(keep)s.")
                    % {"drop": drop_name, "keep": keep.full_name},
                )
                mail.report_moved_up()
                return redirect("manage:player-merge", slug=tournament.slug)
    context = {
        "tournament": tournament,
        "form": form,
        "duplicates": possible_duplicates(request.user),
    }
    return render(request, "tournament/manage/player_merge.html", context, status=status)


@director_required
@require_GET
def player_data(request, slug, pk):
    """The person of entry ``pk`` as a JSON file: the shared player row, and their entries,
    registrations, rounds and penalties in the director's tournaments, with history."""
    tournament = get_managed_tournament(request, slug)
    entry = get_object_or_404(tournament.entries.select_related("player"), pk=pk)
    player = entry.player
    own = changeable_players(request.user).filter(pk=player.pk).exists()
    data = personal_data(player, managed_tournaments(request.user), own_player=own)
    return download(downloads.personal_data(tournament, player.full_name, data), private=True)
