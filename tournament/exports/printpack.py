"""The print pack of a round: one A4 PDF for the tournament office before the round starts.

It holds, in this order,

1. for every table a pre-filled Spielliste: the players in their positions (position 1 deals
   the first game, the last position keeps the list), one line per game with the dealer of
   the normal sequence, empty columns for kind, soloist, the game's value and the points,
   spare lines for penalties, the Pflichtsolo section and a QR code of the table's entry
   link;
2. the table plan, by table;
3. the seat list, by name, for the entrance;
4. a table card per table: a tent card (A4 folded across the middle) with the big table
   number, the round and the QR code on both faces.

The data come from three queries (round with tournament, tables, seats with entries and
players); the QR codes are small PNG images (one pixel per module, scaled up without
smoothing), made once per table and shared by its sheet and its table card.

Speed: WeasyPrint spends about half a millisecond on every box it lays out, and a score
sheet is hundreds of them; the sheets are therefore drawn directly with ReportLab
(``scoresheet``, a few milliseconds a sheet). WeasyPrint lays out the rest (plan, seat list,
table cards) behind one empty placeholder page per sheet, so that its page numbers count
the sheets; the placeholders are then replaced by the drawn pages.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import segno
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from scoring.ledger import dealing_order

from ..models import Round, Table
from ..models.names import sort_key
from ..models.round import seats_with_players
from . import GENERATED
from .prefilled import GameLine, PrintTable, SeatedPlayer

TEMPLATE = "tournament/print/pack.html"

# Pixels per module of a QR code image: with one, a viewer that shows the page at 100-150
# dpi samples modules of uneven size and the code no longer scans from the screen; four
# scan from 100 dpi up, as the vector code did, and the PNG stays under 0.5 kB.
QR_SCALE = 4


@dataclass(frozen=True)
class SeatListLine:
    player: SeatedPlayer
    table: int
    letter: str  # the first letter of the sort key: the seat list starts a group per letter


def group_letter(last_name: str) -> str:
    """The heading a name is listed under on the seat list: its initial, "#" for others."""
    initial = sort_key(last_name).strip()[:1].upper()
    return initial if initial.isalpha() else "#"


def game_lines(size: int, games: int) -> list[GameLine]:
    """The engine's dealing order when every deal passes on (:func:`scoring.ledger.dealing_order`):
    who deals each game and, at a 5-table, who sits out."""
    lines = []
    for number, (dealer, sitter) in enumerate(dealing_order(size, games), start=1):
        sits_out = tuple(position == sitter for position in range(1, size + 1))
        ends_cycle = number % size == 0 and number != games
        lines.append(GameLine(number, dealer, sits_out, ends_cycle))
    return lines


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (scales with its CSS width)."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(border=4, omitsize=True, svgclass="qr", lineclass=None)
    return mark_safe(svg)  # noqa: S308 - segno's own markup; the URL is only encoded in it


def qr_code(url: str) -> segno.QRCode:
    return segno.make(url, error="m", micro=False)


def qr_png(url: str | segno.QRCode) -> bytes:
    """The QR code of ``url`` as a black-and-white PNG of QR_SCALE pixels per module with the
    quiet zone of four modules; the print stylesheet scales it up without smoothing
    (image-rendering), so every module stays a sharp square on paper."""
    code = qr_code(url) if isinstance(url, str) else url
    out = io.BytesIO()
    code.save(out, kind="png", scale=QR_SCALE, border=4)
    return out.getvalue()


def keeper_url(base_url: str, table: Table) -> str:
    return base_url.rstrip("/") + reverse("keeper-sheet", args=[table.token])


def build_context(round_: Round, base_url: str, images: dict[str, bytes] | None = None) -> dict:
    """Everything the print pack template needs, from three queries. The QR codes go into
    ``images`` by name (see :func:`~.pdf.render_pdf`)."""

    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    tournament = round_.tournament
    profile = tournament.profile
    tables = (
        Table.objects.filter(round=round_).order_by("number").prefetch_related(seats_with_players())
    )
    games_by_size = {size: game_lines(size, profile.games_per_round(size)) for size in (4, 5)}
    print_tables = []
    for table in tables:
        url = keeper_url(base_url, table)
        name = f"qr-{table.number}.png"
        code = qr_code(url)  # made once: the table card shows it, the score sheet draws it
        if images is not None:
            images[name] = qr_png(code)
        modules = [[bool(bit) for bit in row] for row in code.matrix_iter(border=4)]
        item = PrintTable(table.number, table.size, url, GENERATED + name, modules)
        last = max((seat.position for seat in table.seats.all()), default=0)
        for seat in table.seats.all():
            player = seat.entry.player
            item.players.append(
                SeatedPlayer(
                    position=seat.position,
                    start_number=seat.entry.start_number,
                    first_name=player.first_name,
                    last_name=player.last_name,
                    is_keeper=seat.position == last,
                    deals_first=seat.position == 1,
                )
            )
        item.games = games_by_size[table.size]
        print_tables.append(item)

    seat_list = sorted(
        (
            SeatListLine(player, table.number, group_letter(player.last_name))
            for table in print_tables
            for player in table.players
        ),
        key=lambda line: (
            sort_key(line.player.last_name),
            sort_key(line.player.first_name),
            line.player.start_number,
        ),
    )
    return {
        "tournament": tournament,
        "round": round_,
        "tables": print_tables,
        "seat_list": seat_list,
        "players_count": len(seat_list),
        "pflichtsoli": range(profile.pflichtsoli_per_round),
        "generated_at": timezone.localtime(),
    }


def print_pack(round_: Round, base_url: str) -> bytes:
    """The print pack of ``round_`` as PDF; ``base_url`` is the site root for the QR links."""
    from pypdf import PdfReader, PdfWriter

    from .pdf import render_pdf  # WeasyPrint loads only when a PDF is made
    from .scoresheet import sheets_pdf

    images: dict[str, bytes] = {}
    context = build_context(round_, base_url, images)
    rest = PdfReader(io.BytesIO(render_pdf(TEMPLATE, context, base_url=base_url, images=images)))
    sheets = PdfReader(io.BytesIO(sheets_pdf(context, len(rest.pages))))
    pack = PdfWriter()
    for page in sheets.pages:
        pack.add_page(page)
    for page in rest.pages[len(sheets.pages) :]:
        pack.add_page(page)
    if rest.metadata:
        pack.add_metadata(dict(rest.metadata))
    out = io.BytesIO()
    pack.write(out)
    return out.getvalue()
