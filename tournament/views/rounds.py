"""Directors: draw rounds, look at the table plan and its quality, swap, release."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from ..base.site_url import public_url
from ..domain import draw as draw_domain
from ..errors import DomainError
from ..forms.rounds import DrawForm, SwapForm
from ..models import DrawLog, RoundStatus
from ..models.round import seats_with_players
from ..permissions import director_required, get_managed_tournament
from ..tasks.mail import RequestMailer
from ..wording.findings import wish_cost_message, wishes_cost

CUT_BY_CLOCK = gettext_lazy(
    "This computer was too busy to finish the search in time, so the clock stopped it: the "
    "plan is valid, but drawing again with the same seed may give another one."
)


def _round(tournament, number):
    return get_object_or_404(tournament.rounds, number=number)


@director_required
def round_list(request, slug):
    tournament = get_managed_tournament(request, slug)
    rounds = tournament.rounds.order_by("number").prefetch_related("tables")
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "form": DrawForm(),
        "participants": len(draw_domain.participants(tournament)),
    }
    return render(request, "tournament/manage/round_list.html", context)


@director_required
@require_POST
def round_draw(request, slug):
    tournament = get_managed_tournament(request, slug)
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Please check the draw settings."))
        return redirect("manage:round-list", slug=slug)
    try:
        result = draw_domain.draw(
            tournament,
            request.user,
            all_rounds=form.cleaned_data["all_rounds"],
            seed=form.cleaned_data["seed"],
            base_url=public_url(request, "/"),
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("manage:round-list", slug=slug)
    numbers = ", ".join(str(r.number) for r in result.rounds)
    messages.success(
        request,
        ngettext(
            "Round %(numbers)s drawn in %(seconds)s s (seed %(seed)s).",
            "Rounds %(numbers)s drawn in %(seconds)s s (seed %(seed)s).",
            len(result.rounds),
        )
        % {
            "numbers": numbers,
            "seconds": formats.number_format(result.seconds, 2),  # 0,03 in German
            "seed": result.seed,
        },
    )
    if result.cut_by_clock:
        messages.warning(request, CUT_BY_CLOCK)
    return redirect("manage:round-detail", slug=slug, number=result.rounds[0].number)


DRAWS = {DrawLog.Action.DRAW, DrawLog.Action.REDRAW}


@director_required
def round_detail(request, slug, number):
    tournament = get_managed_tournament(request, slug)
    round_ = _round(tournament, number)
    tables = round_.tables.prefetch_related(seats_with_players()).order_by("number")
    log = list(round_.draw_logs.select_related("user").order_by("-at", "-pk")[:10])
    drawn = next((item for item in log if item.action in DRAWS), None)
    context = {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "report": draw_domain.round_report(round_) if tables else None,
        "log": log,
        # the latest draw of this round says whether fair 5-tables cost repeats
        "drawn": drawn,
        # what the seat wishes cost the plan this round belongs to, in words
        "wish_cost": wish_cost_message(drawn.wish_cost, tournament.planned_rounds)
        if drawn and drawn.wish_cost
        else None,
        "wishes_cost": bool(drawn and drawn.wish_cost and wishes_cost(drawn.wish_cost)),
        "swap_form": SwapForm(),
        "editable": round_.status == RoundStatus.DRAWN,
        "release_blocker": draw_domain.release_blocker(round_),
    }
    return render(request, "tournament/manage/round_detail.html", context)


@director_required
@require_POST
def round_swap(request, slug, number):
    tournament = get_managed_tournament(request, slug)
    round_ = _round(tournament, number)
    form = SwapForm(request.POST)
    if form.is_valid():
        try:
            warning = draw_domain.swap(
                round_, form.cleaned_data["first"], form.cleaned_data["second"], request.user
            )
            messages.success(request, _("Seats swapped."))
            if warning:
                messages.warning(request, warning)
        except DomainError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, _("Enter two start numbers."))
    return redirect("manage:round-detail", slug=slug, number=number)


@director_required
@require_POST
def round_release(request, slug, number):
    tournament = get_managed_tournament(request, slug)
    round_ = _round(tournament, number)
    try:
        draw_domain.release(round_, request.user, mail=RequestMailer(request))
        messages.success(request, _("Round %(number)s released.") % {"number": number})
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("manage:round-detail", slug=slug, number=number)
