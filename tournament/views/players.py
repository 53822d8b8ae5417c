"""Directors: merging two rows of the player database that are one person."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..domain import DomainError
from ..domain.players import merge_players, possible_duplicates
from ..forms.players import MergeForm
from ..mail import RequestMailer
from ..permissions import changeable_players, director_required, get_managed_tournament


@director_required
def player_merge(request, slug):
    tournament = get_managed_tournament(request, slug)
    players = changeable_players(request.user).order_by("last_name", "first_name", "pk")
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
