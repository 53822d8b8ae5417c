"""The player cards ("Spielerkarten"): one small card per active entry of a tournament with
its start number, name, personal confirmation code and the QR code of the player's page for
the day (their seat, code and points: the entry's personal token), ten to an A4 page with cut
lines.

The code is what confirming a Spielliste on the table's link needs besides the start
number, so the cards are handed out at check-in and the file is for the director only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from django.urls import reverse
from django.utils import timezone

from ..models import EntryStatus, Tournament
from . import GENERATED
from .printpack import qr_png

TEMPLATE = "tournament/print/player_cards.html"
CARDS_PER_PAGE = 10  # two columns of five: 92 x 52 mm each inside the page margins


@dataclass(frozen=True)
class PlayerCard:
    start_number: int
    name: str
    club: str
    code: str
    token: str | None = None  # the personal page's; None once the personal data is deleted
    qr: str = ""  # the address of its QR code image in the document


def personal_url(base_url: str, token: str) -> str:
    return base_url.rstrip("/") + reverse("registration-personal", args=[token])


def cards(tournament: Tournament, numbers: Collection[int] = ()) -> list[PlayerCard]:
    """The cards of the tournament's active entries, by start number (one query); with
    ``numbers`` only those (the cards to print anew after a table's codes were renewed)."""
    entries = tournament.entries.filter(status=EntryStatus.ACTIVE)
    if numbers:
        entries = entries.filter(start_number__in=numbers)
    entries = entries.select_related("player").order_by("start_number")
    return [
        PlayerCard(e.start_number, e.player.full_name, e.player.club, e.confirm_code, e.token)
        for e in entries
    ]


def build_context(
    tournament: Tournament,
    numbers: Collection[int] = (),
    base_url: str = "",
    images: dict[str, bytes] | None = None,
) -> dict:
    """The cards in pages; with ``base_url`` (the site's address for the phones) each card
    gets the QR code of its player's page, its PNG put into ``images`` by name."""
    every = cards(tournament, numbers)
    if base_url and images is not None:
        with_qr = []
        for card in every:
            if card.token:
                name = f"card-{card.start_number}.png"
                images[name] = qr_png(personal_url(base_url, card.token))
                card = replace(card, qr=GENERATED + name)
            with_qr.append(card)
        every = with_qr
    pages = [every[i : i + CARDS_PER_PAGE] for i in range(0, len(every), CARDS_PER_PAGE)]
    return {"tournament": tournament, "pages": pages, "generated_at": timezone.now()}


def player_cards_pdf(
    tournament: Tournament, numbers: Collection[int] = (), base_url: str = ""
) -> bytes:
    """The player cards of ``tournament`` as PDF (with ``numbers``: only theirs; with
    ``base_url``: with the QR codes of the players' pages)."""
    from .pdf import render_pdf  # WeasyPrint loads only when a PDF is made

    images: dict[str, bytes] = {}
    context = build_context(tournament, numbers, base_url, images)
    if base_url:
        return render_pdf(TEMPLATE, context, base_url=base_url, images=images)
    return render_pdf(TEMPLATE, context, images=images)


# At most this many start numbers in one request for single cards: a table's players.
MAX_NUMBERS = 10


def numbers_variant(raw: str, base_url: str = "") -> str:
    """The document variant for the cards: the site's address for the QR codes (if any),
    then the start numbers from "3,7,12" as the page links them, sorted and space-separated
    (none: every card; so for anything unreadable)."""
    parts = raw.split(",")
    numbers = ""
    if raw and len(parts) <= MAX_NUMBERS and all(p.isdecimal() and len(p) < 6 for p in parts):
        numbers = " ".join(str(n) for n in sorted({int(p) for p in parts}))
    return f"{base_url} {numbers}".strip()


def variant_numbers(variant: str) -> list[int]:
    return [int(part) for part in variant.split() if part.isdecimal()]


def variant_base_url(variant: str) -> str:
    """The site's address of a variant ("" in one made before the cards had QR codes)."""
    first = variant.split(" ", 1)[0]
    return "" if not first or first.isdecimal() else first
