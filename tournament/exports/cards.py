"""The player cards ("Spielerkarten"): one small card per active entry of a tournament with
its start number, name and personal confirmation code, ten to an A4 page with cut lines.

The code is what confirming a Spielliste on the table's link needs besides the start
number, so the cards are handed out at check-in and the file is for the director only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.utils import timezone

from ..models import EntryStatus, Tournament

TEMPLATE = "tournament/print/player_cards.html"
CARDS_PER_PAGE = 10  # two columns of five: 92 x 52 mm each inside the page margins


@dataclass(frozen=True)
class PlayerCard:
    start_number: int
    name: str
    club: str
    code: str


def cards(tournament: Tournament, numbers: Collection[int] = ()) -> list[PlayerCard]:
    """The cards of the tournament's active entries, by start number (one query); with
    ``numbers`` only those (the cards to print anew after a table's codes were renewed)."""
    entries = tournament.entries.filter(status=EntryStatus.ACTIVE)
    if numbers:
        entries = entries.filter(start_number__in=numbers)
    entries = entries.select_related("player").order_by("start_number")
    return [
        PlayerCard(e.start_number, e.player.full_name, e.player.club, e.confirm_code)
        for e in entries
    ]


def build_context(tournament: Tournament, numbers: Collection[int] = ()) -> dict:
    every = cards(tournament, numbers)
    pages = [every[i : i + CARDS_PER_PAGE] for i in range(0, len(every), CARDS_PER_PAGE)]
    return {"tournament": tournament, "pages": pages, "generated_at": timezone.now()}


def player_cards_pdf(tournament: Tournament, numbers: Collection[int] = ()) -> bytes:
    """The player cards of ``tournament`` as PDF (with ``numbers``: only theirs)."""
    from .pdf import render_pdf  # WeasyPrint loads only when a PDF is made

    return render_pdf(TEMPLATE, build_context(tournament, numbers))


# At most this many start numbers in one request for single cards: a table's players.
MAX_NUMBERS = 10


def numbers_variant(raw: str) -> str:
    """The document variant for the cards of some start numbers, from "3,7,12" as the page
    links them: the numbers sorted, space-separated; "" (every card) for anything else."""
    parts = raw.split(",")
    if not raw or len(parts) > MAX_NUMBERS or not all(p.isdecimal() and len(p) < 6 for p in parts):
        return ""
    return " ".join(str(n) for n in sorted({int(p) for p in parts}))


def variant_numbers(variant: str) -> list[int]:
    return [int(part) for part in variant.split()]
