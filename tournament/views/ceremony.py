"""The prize ceremony on the projector (issue 38): a full-screen page that reveals the prize
list one click at a time, from the last category to the first (the director's order puts the
main prize first, so the ceremony ends with it) and within a category from the last place to
the first. Every slide is in the page (the script needs no request after loading), so the
laptop may lose its network during the ceremony. The hall sees it: public names and clubs."""

from django.shortcuts import render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_GET

from ..models import Tournament
from ..models.prize import Measure
from ..permissions import director_required, get_managed_tournament
from ..queries.prizes import AwardLine, PrizeList, prize_list


def _score_label(measure: str) -> str:
    if measure == Measure.BEST_ROUND:
        return _("Points (best round)")
    if measure == Measure.BEST_FIVE_TABLE:
        return _("Points (best round at a 5-player table)")
    return _("Points")


def _award_slide(award: AwardLine, score_label: str) -> dict:
    return {
        "kind": "award",
        "category": award.category,
        "place": award.place,
        "shared": award.shared > 1,
        "name": award.public_name,
        "club": award.public_club,
        "score": award.score,
        "score_label": score_label,
        "prize": award.prize_text,
    }


def ceremony_slides(prizes: PrizeList) -> list[dict]:
    """The slides in the order they are shown: the title, then from the last category to the
    first a heading and its awards from the last place to the first, then the closing slide.
    A category nobody won is left out."""
    slides: list[dict] = [{"kind": "title"}]
    for category in reversed(prizes.categories):
        if not category.awards:
            continue
        count = len(category.awards)
        slides.append(
            {
                "kind": "category",
                "category": category.name,
                "count": ngettext("%(count)s prize", "%(count)s prizes", count) % {"count": count},
            }
        )
        label = _score_label(category.measure)
        # Last place first; players sharing a place stand in the standings' order, so the
        # reversed list also calls the better of them last.
        slides.extend(_award_slide(award, label) for award in reversed(category.awards))
    slides.append({"kind": "end", "empty": len(slides) == 1})
    return slides


def _words() -> dict[str, str]:
    """The words the script puts on the slides, in the page's language ({n}: a number)."""
    return {
        # With a context: the prize pages may use the same English words elsewhere.
        "ceremony": pgettext("ceremony", "Prize ceremony"),
        "provisional": _("provisional"),
        "place": pgettext("ceremony", "Place {n}"),
        "shared": _("shared"),
        "prize": pgettext("ceremony", "Prize"),
        "end": _("Congratulations to all winners!"),
        "thanks": _("Thank you for playing."),
        "empty": _("No prizes have been awarded yet."),
        "progress": _("{n} of {total}"),
    }


@director_required
@require_GET
def ceremony(request, slug):
    tournament: Tournament = get_managed_tournament(request, slug)
    prizes = prize_list(tournament)
    data = {
        "tournament": tournament.name,
        "date": formats.date_format(tournament.date, "DATE_FORMAT"),
        "provisional": prizes.provisional,
        "words": _words(),
        "slides": ceremony_slides(prizes),
    }
    response = render(
        request, "tournament/manage/ceremony.html", {"tournament": tournament, "data": data}
    )
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
