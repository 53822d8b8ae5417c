"""What a rule profile takes from elsewhere because its own rule text does not give it
(scoring.profiles.NotInText), in words: for the referee deciding a penalty and for the
director choosing the profile."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.penalties import Category
from scoring.profiles import NotInText, RuleProfile

NOT_IN_TEXT: dict[NotInText, Promise] = {
    NotInText.PENALTY_GERINGFUEGIG: _(
        "Minor violations: points taken from the DDV rules (TSR 9.3). The BSV Hessen 2010 text "
        "names such violations but gives no points for them."
    ),
    NotInText.PENALTY_SCHWERWIEGEND: _(
        "Serious violations: points taken from the DDV rules (TSR 9.4). The BSV Hessen 2010 "
        "text has no scale for them."
    ),
    NotInText.PFLICHTSOLO: _(
        "Pflichtsolo (one per player and round, the dealer deals again, Lustsolo only after "
        "it, when it is vorgeführt): as in the DDV rules (TSR 4.2, 4.3). The BSV Hessen 2010 "
        "text mentions the Pflichtsolo but does not regulate it."
    ),
    NotInText.VORFUEHREN_SITTER_PASSES_DEAL: _(
        "Whether a dealer who sits out at a 5-table passes the deal to play his vorgeführtes "
        "Pflichtsolo is decided by no rule text: it is Kreuzdame's default, which a custom "
        "profile can change."
    ),
}

# The penalty categories whose row a note is about.
_PENALTY_CATEGORIES: dict[NotInText, tuple[Category, ...]] = {
    NotInText.PENALTY_GERINGFUEGIG: (Category.GERINGFUEGIG,),
    NotInText.PENALTY_SCHWERWIEGEND: (Category.SCHWERWIEGEND,),
}


class PenaltyNote(NamedTuple):
    text: Promise
    categories: tuple[str, ...]  # the categories (their values) the note is about


def profile_notes(profile: RuleProfile) -> list[Promise]:
    """Every note of ``profile``, in the profile's order."""
    return [NOT_IN_TEXT[gap] for gap in profile.not_in_text]


def penalty_notes(profile: RuleProfile, category: str | None = None) -> list[PenaltyNote]:
    """The notes of ``profile`` about penalty points, only those about ``category`` if given.
    A violation in an already decided game is punished like a minor one where the profile
    adds a penalty to the abort (TSR 9.5.1)."""
    notes = []
    for gap in profile.not_in_text:
        categories = _PENALTY_CATEGORIES.get(gap)
        if categories is None:
            continue
        if gap is NotInText.PENALTY_GERINGFUEGIG and profile.decided_game_extra_penalty:
            categories = (*categories, Category.DECIDED_GAME)
        values = tuple(str(c) for c in categories)
        if category is None or category in values:
            notes.append(PenaltyNote(NOT_IN_TEXT[gap], values))
    return notes


assert set(NOT_IN_TEXT) == set(NotInText)
