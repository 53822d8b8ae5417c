"""Directors: the seat wishes of the players page (issue 39, README "Sitzwünsche"): "never
at one table" groups entered by start number, and removing them. The card stands on the
players page outside its live part (polling never replaces what is being typed); a refused
group shows the card alone with the typed numbers and the message (400), nothing written.
A player's fixed table is set on the entry's edit page (views/entries.py), keeping team-mates
apart in the tournament's settings."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..domain.wishes import add_apart_group, remove_apart_group, who
from ..errors import DomainError
from ..forms.wishes import MESSAGE_TAG, ApartGroupForm
from ..models import ApartGroup
from ..permissions import director_required, get_managed_tournament
from ..queries.wishes import seat_wishes

ANCHOR = "seat-wishes"


def wish_form(data=None) -> ApartGroupForm:
    # Its own ids: the players page has an add form and a filter with fields too.
    return ApartGroupForm(data, auto_id="wish_%s")


def _back(tournament):
    return redirect(f"{reverse('manage:entry-list', kwargs={'slug': tournament.slug})}#{ANCHOR}")


@director_required
def seat_wishes_page(request, slug):
    """GET: the card alone. POST: a new never-together group; back to the players page."""
    tournament = get_managed_tournament(request, slug)
    form = wish_form(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                group = add_apart_group(tournament, data["numbers"], data["note"], request.user)
            except DomainError as exc:
                form.add_error("numbers", exc.message)
            else:
                members = group.members.select_related("player").order_by("start_number")
                messages.success(
                    request,
                    _("Never at one table: %(players)s.")
                    % {"players": ", ".join(who(entry) for entry in members)},
                    extra_tags=MESSAGE_TAG,
                )
                return _back(tournament)
    context = {"tournament": tournament, "wishes": seat_wishes(tournament), "wish_form": form}
    return render(request, "tournament/manage/seat_wishes.html", context, status=status)


@director_required
@require_POST
def seat_wish_remove(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    group = ApartGroup.objects.filter(tournament=tournament, pk=pk).first()
    numbers = ""
    if group is not None:
        members = group.members.order_by("start_number").values_list("start_number", flat=True)
        numbers = ", ".join(str(number) for number in members)
    try:
        if group is None:
            raise DomainError(_("This never-together group was removed already."))
        remove_apart_group(group, request.user)
    except DomainError as exc:
        messages.info(request, exc.message, extra_tags=MESSAGE_TAG)
    else:
        messages.success(
            request,
            _("Never at one table %(numbers)s removed.") % {"numbers": numbers},
            extra_tags=MESSAGE_TAG,
        )
    return _back(tournament)
