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

Speed: WeasyPrint spends most of its time on CSS boxes, and a game grid as an HTML table
has some 250 cells per sheet. The grid below the column headings is therefore one inline
SVG (lines, shading, game and dealer numbers), drawn once per table size and reused by every
sheet of that size; the headings with the players' names stay HTML.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import segno
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from ..models import Round, Table
from ..models.round import seats_with_players
from ..names import sort_key
from . import GENERATED

TEMPLATE = "tournament/print/pack.html"

# The game grid, in millimetres: the width of the A4 page inside the margins of print.css
# (210 - 2 x 13) and the fixed columns game, dealer, kind, soloist, value; the positions
# share the rest. print.css gives the heading row (.games-head) the same widths.
GRID_WIDTH = 184.0
FIXED_COLUMNS = (11.0, 11.0, 10.0, 10.0, 11.0)
TOTAL_ROW = 6.5
# Unnumbered lines below the games for penalty rows (Strafpunkte: the row and the referee's
# initials, TSR 8.2.2), which the table writes on its sheet as a line of their own.
SPARE_ROWS = 3
# The height the game lines (games and spare lines) share so that a sheet stays one A4 page,
# and the limits of one line: roomy for short rounds, still writable for long ones.
GRID_BODY, ROW_MAX, ROW_MIN = 138.0, 7.0, 3.6
INK, RULE, MUTED, SHADE = "#1d2330", "#9aa1ad", "#5b6475", "#d9dce1"
# Pixels per module of a QR code image: with one, a viewer that shows the page at 100-150
# dpi samples modules of uneven size and the code no longer scans from the screen; four
# scan from 100 dpi up, as the vector code did, and the PNG stays under 0.5 kB.
QR_SCALE = 4
HAIRLINE, STRONG = 0.14, 0.35  # 0.4 pt and 1 pt
GRID_FONT = 3.0  # 8.5 pt
NOTE_FONT = 2.0  # 5.7 pt
# Advance of a digit in DejaVu Sans and DejaVu Sans Bold (1303 and 1425 of 2048 units): the
# numbers are centred by hand, see _number_run.
DIGIT, BOLD_DIGIT = GRID_FONT * 1303 / 2048, GRID_FONT * 1425 / 2048


@dataclass(frozen=True)
class SeatedPlayer:
    position: int
    start_number: int
    first_name: str
    last_name: str
    is_keeper: bool
    deals_first: bool

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def sort_name(self) -> str:
        """The name as on the seat list: "Last, First"."""
        return f"{self.last_name}, {self.first_name}" if self.first_name else self.last_name


@dataclass(frozen=True)
class GameLine:
    number: int
    dealer: int
    # One flag per position: True where that player sits out (the dealer at a 5-table).
    sits_out: tuple[bool, ...]
    # The last game of a complete dealing round: drawn with a stronger rule below it.
    ends_cycle: bool


@dataclass
class PrintTable:
    number: int
    size: int
    keeper_url: str
    qr: str  # the address of the QR code image in the document (see qr_png)
    players: list[SeatedPlayer] = field(default_factory=list)
    games: list[GameLine] = field(default_factory=list)
    grid: SafeString = SafeString("")

    @property
    def keeper(self) -> SeatedPlayer | None:
        return next((p for p in self.players if p.is_keeper), None)


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
    """The normal dealer sequence: game g is dealt by position ((g - 1) mod size) + 1; at a
    5-table the dealer sits out."""
    lines = []
    for number in range(1, games + 1):
        dealer = (number - 1) % size + 1
        sits_out = tuple(size == 5 and position == dealer for position in range(1, size + 1))
        ends_cycle = number % size == 0 and number != games
        lines.append(GameLine(number, dealer, sits_out, ends_cycle))
    return lines


def row_height(games: int) -> float:
    """Line height of the game grid (``games`` lines plus the spare lines): the sheet fits
    one A4 page up to 35 games."""
    height = GRID_BODY / (games + SPARE_ROWS)
    return round(max(ROW_MIN, min(ROW_MAX, height)), 2)


def position_width(size: int) -> float:
    return (GRID_WIDTH - sum(FIXED_COLUMNS)) / size


def _number_run(
    values: list[int], center: float, height: float, advance: float
) -> tuple[str, str, str]:
    """One SVG text run for a column of numbers, one per line, each centred on ``center``:
    per-character x and y lists instead of one <text> element per line (the digits of
    DejaVu Sans all have the same advance)."""
    xs, ys, text = [], [], []
    for line, value in enumerate(values):
        digits = str(value)
        left = center - len(digits) * advance / 2
        baseline = height * line + height / 2 + GRID_FONT * 0.36
        for index, digit in enumerate(digits):
            xs.append(f"{left + index * advance:.2f}")
            ys.append(f"{baseline:.2f}")
            text.append(digit)
    return " ".join(xs), " ".join(ys), "".join(text)


def grid_svg(
    lines: list[GameLine], size: int, total_label: str, spare_label: str = "", note_label: str = ""
) -> SafeString:
    """The body of a Spielliste's game grid as inline SVG: one line per game with its number
    and dealer, the dealer's cell shaded where the dealer sits out, a strong rule after each
    dealing round, the spare lines for penalties (``spare_label`` across game and dealer,
    ``note_label`` small where the referee initials) and the total line.

    A few elements per sheet, not one per line or cell: each element of the document costs
    WeasyPrint style and layout time, and a print pack has a hundred sheets."""
    height = row_height(len(lines))
    width = position_width(size)
    fixed = len(FIXED_COLUMNS)
    edges = [0.0]
    for column in (*FIXED_COLUMNS, *[width] * size):
        edges.append(edges[-1] + column)
    edges[0], edges[-1] = HAIRLINE / 2, GRID_WIDTH - HAIRLINE / 2  # keep outer rules inside
    games_bottom = height * len(lines)
    total_top = games_bottom + height * SPARE_ROWS
    full = total_top + TOTAL_ROW
    shade: list[str] = []
    thin: list[str] = []
    strong: list[str] = []
    vertical: list[str] = []
    for line in lines:
        top = height * (line.number - 1)
        for position, out in enumerate(line.sits_out):
            if out:
                x = edges[fixed + position]
                shade.append(f"M{x:.2f} {top:.2f}h{width:.2f}v{height:g}h{-width:.2f}z")
        rule = f"M0 {top + height:.2f}H{GRID_WIDTH:g}"
        (strong if line.ends_cycle or line is lines[-1] else thin).append(rule)
    for spare in range(1, SPARE_ROWS + 1):
        rule = f"M0 {games_bottom + height * spare:.2f}H{GRID_WIDTH:g}"
        (strong if spare == SPARE_ROWS else thin).append(rule)
    thin.append(f"M0 {full - HAIRLINE / 2:.2f}H{GRID_WIDTH:g}")
    for index, x in enumerate(edges):
        if index in (1, 3, 4):  # merged in the spare lines: game + dealer, kind to value
            bottom = games_bottom
        elif 0 < index < fixed:
            bottom = total_top  # the total label spans the fixed columns
        else:
            bottom = full
        vertical.append(f"M{x:.2f} 0V{bottom:.2f}")
    numbers = _number_run(
        [line.number for line in lines], (edges[0] + edges[1]) / 2, height, BOLD_DIGIT
    )
    dealers = _number_run([line.dealer for line in lines], (edges[1] + edges[2]) / 2, height, DIGIT)
    label_y = total_top + TOTAL_ROW / 2 + GRID_FONT * 0.36
    spare_y = [games_bottom + height * (n + 0.5) + GRID_FONT * 0.36 for n in range(SPARE_ROWS)]
    spare_text = "".join(
        f'<text x="1.5" y="{y:.2f}" fill="{MUTED}">{escape(spare_label)}</text>'
        f'<text x="{edges[2] + 1:.2f}" y="{y:.2f}" fill="{MUTED}" font-size="{NOTE_FONT:g}">'
        f"{escape(note_label)}</text>"
        for y in spare_y
    )
    svg = (
        f'<svg class="grid" viewBox="0 0 {GRID_WIDTH:g} {full:.2f}" '
        f'style="width: {GRID_WIDTH:g}mm; height: {full:.2f}mm" '
        f'font-family="DejaVu Sans" font-size="{GRID_FONT:g}" fill="{INK}">'
        f'<path d="{"".join(shade)}" fill="{SHADE}"/>'
        f'<path d="{"".join(thin)}" stroke="{RULE}" stroke-width="{HAIRLINE}" fill="none"/>'
        f'<path d="{"".join(vertical)}" stroke="{RULE}" stroke-width="{HAIRLINE}" fill="none"/>'
        f'<path d="{"".join(strong)}" stroke="{INK}" stroke-width="{STRONG}" fill="none"/>'
        f'<text x="{numbers[0]}" y="{numbers[1]}" font-weight="bold">{numbers[2]}</text>'
        f'<text x="{dealers[0]}" y="{dealers[1]}" fill="{MUTED}">{dealers[2]}</text>'
        f'<text x="1.5" y="{label_y:.2f}" font-weight="bold">{escape(total_label)}</text>'
        f"{spare_text}</svg>"
    )
    return mark_safe(svg)  # noqa: S308 - numbers and an escaped label only


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (scales with its CSS width)."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(border=4, omitsize=True, svgclass="qr", lineclass=None)
    return mark_safe(svg)  # noqa: S308 - segno's own markup; the URL is only encoded in it


def qr_png(url: str) -> bytes:
    """The QR code of ``url`` as a black-and-white PNG of QR_SCALE pixels per module with the
    quiet zone of four modules; the print stylesheet scales it up without smoothing
    (image-rendering), so every module stays a sharp square on paper."""
    code = segno.make(url, error="m", micro=False)
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
    labels = gettext("total"), gettext("Penalty"), gettext("referee's initials")
    grids = {size: grid_svg(lines, size, *labels) for size, lines in games_by_size.items()}
    print_tables = []
    for table in tables:
        url = keeper_url(base_url, table)
        name = f"qr-{table.number}.png"
        if images is not None:
            images[name] = qr_png(url)
        item = PrintTable(table.number, table.size, url, GENERATED + name)
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
        item.grid = grids[table.size]
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
    from .pdf import render_pdf  # WeasyPrint loads only when a PDF is made

    images: dict[str, bytes] = {}
    context = build_context(round_, base_url, images)
    return render_pdf(TEMPLATE, context, base_url=base_url, images=images)
