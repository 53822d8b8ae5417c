"""The Spielliste pages of the print pack, drawn with ReportLab at fixed places on A4.

A score sheet is the same form a hundred times with other names in it. Laid out by
WeasyPrint as HTML it cost 86 ms a sheet (8.6 s of the hall laptop's CPU for 100 tables),
most of it on the boxes of the names, numbers and labels; drawn here at coordinates it
costs a few milliseconds. The design is the one of ``print.css`` (the other pages of the
pack): DejaVu Sans, its colours, rules and margins; measures below are in millimetres from
the top left corner of the page, as in the stylesheet.

Nothing here fetches or interprets anything: names are drawn as text (``drawString``),
never as markup, and the QR code is drawn module by module as filled squares.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from reportlab import rl_config
from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..models.sheet import legend
from .drawn import faces, visual
from .prefilled import PrintTable

# Page streams compressed, without ASCII85 on top (a quarter larger and slower to write).
rl_config.useA85 = 0

PT = 25.4 / 72  # one point in millimetres
PAGE_HEIGHT = 297.0
LEFT, TOP, BOTTOM = 13.0, 12.0, 15.0  # print.css @page margins
INK, MUTED, RULE = HexColor("#1d2330"), HexColor("#5b6475"), HexColor("#9aa1ad")
HAIR, SHADE, ACCENT = HexColor("#c9ced6"), HexColor("#eceef1"), HexColor("#0b5d3b")
GRID_SHADE = HexColor("#d9dce1")
BADGE_LABEL = HexColor("#d9dde5")
# DejaVu Sans: the ascent and descent of its glyph box, in ems (CSS centres that box in the
# line; the baseline lies at its ascent).
ASCENT, DESCENT = 0.928, 0.236

# The game grid: the width of the page inside its margins (210 - 2 x 13) and the fixed
# columns game, dealer, kind, soloist, value; the positions share the rest.
GRID_WIDTH = 184.0
FIXED_COLUMNS = (11.0, 11.0, 10.0, 10.0, 11.0)
TOTAL_ROW = 6.5
# Unnumbered lines below the games for penalty rows (Strafpunkte: the row and the referee's
# initials, TSR 8.2.2), which the table writes on its sheet as a line of their own.
SPARE_ROWS = 3
# The height the game lines (games and spare lines) share so that a sheet stays one A4 page,
# and the limits of one line: roomy for short rounds, still writable for long ones.
GRID_BODY, ROW_MAX, ROW_MIN = 138.0, 7.0, 3.0
HAIRLINE, STRONG = 0.14, 0.35  # 0.4 pt and 1 pt
GRID_FONT = 3.0  # 8.5 pt
NOTE_FONT = 2.0  # 5.7 pt
HEAD_MIN = 51.0  # the header's least height; the badges and the QR code fill it
INTRO_WIDTH = GRID_WIDTH - 54.0  # the title and the players, left of badges and QR code
BADGE_WIDTH, BADGE_GAP, BADGE_HEIGHT = 21.7, 1.5, 13.3
QR_BOX, QR_SIZE = 37.0, 30.0
GAMES_HEAD = 9.5


def row_height(games: int, body: float = GRID_BODY) -> float:
    """Line height of the game grid (``games`` lines plus the spare lines in ``body`` mm,
    less where a long title or more Pflichtsoli leave less): the sheet fits one A4 page up
    to 35 games."""
    height = min(GRID_BODY, body) / (games + SPARE_ROWS)
    return round(max(ROW_MIN, min(ROW_MAX, height)), 2)


def position_width(size: int) -> float:
    return (GRID_WIDTH - sum(FIXED_COLUMNS)) / size


def baseline(top: float, line: float, size: float) -> float:
    """The baseline (mm from the page top) of text of ``size`` points in a line box of
    ``line`` points whose top is at ``top``: the glyph box centred in the line, as CSS."""
    return top + ((line - (ASCENT + DESCENT) * size) / 2 + ASCENT * size) * PT


def fitted(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with "…" to ``width`` mm, as CSS ``text-overflow: ellipsis``."""
    if stringWidth(text, font, size) * PT <= width:
        return text
    while text and stringWidth(text + "…", font, size) * PT > width:
        text = text[:-1]
    return text.rstrip() + "…"


class Page:
    """A canvas addressed in millimetres from the page's top left corner."""

    def __init__(self, canvas: Canvas, font: dict[str, str]) -> None:
        self.canvas, self.font = canvas, font

    def text(
        self,
        x: float,
        y: float,
        text: str,
        face: str = "sans",
        size: float = 9.5,
        colour: Color = INK,
        align: str = "left",
        spacing: float = 0.0,
    ) -> None:
        """``text`` with its baseline at ``y``; ``align`` left, centre (x the middle) or
        right (x the end); ``spacing`` between letters in ems, as CSS letter-spacing."""
        canvas, font = self.canvas, self.font[face]
        text = visual(text)
        canvas.setFillColor(colour)
        canvas.setFont(font, size)
        extra = spacing * size
        width = stringWidth(text, font, size) + extra * len(text)
        left = {"left": x * mm, "centre": x * mm - width / 2, "right": x * mm - width}[align]
        canvas.drawString(left, (PAGE_HEIGHT - y) * mm, text, charSpace=extra)

    def rule(self, x0: float, y0: float, x1: float, y1: float, width: float, colour: Color):
        self.canvas.setStrokeColor(colour)
        self.canvas.setLineWidth(width)
        self.canvas.line(x0 * mm, (PAGE_HEIGHT - y0) * mm, x1 * mm, (PAGE_HEIGHT - y1) * mm)

    def box(
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        fill: Color | None = None,
        stroke: Color | None = None,
        line: float = 0.6,
        radius: float = 0.0,
    ) -> None:
        """A rectangle with its top left corner at (x, y)."""
        canvas = self.canvas
        if fill is not None:
            canvas.setFillColor(fill)
        if stroke is not None:
            canvas.setStrokeColor(stroke)
            canvas.setLineWidth(line)
        args = (x * mm, (PAGE_HEIGHT - y - height) * mm, width * mm, height * mm)
        draw = {"stroke": int(stroke is not None), "fill": int(fill is not None)}
        if radius:
            canvas.roundRect(*args, radius * mm, **draw)
        else:
            canvas.rect(*args, **draw)

    def lines(self, x: float, y: float, lines: Sequence[str], face: str, size: float,
              line: float, colour: Color = INK, align: str = "left") -> float:  # fmt: skip
        """Lines of text from ``y`` (the top of the first line box) down; returns the bottom."""
        for text in lines:
            self.text(x, baseline(y, line, size), text, face, size, colour, align)
            y += line * PT
        return y

    def wrapped(self, text: str, face: str, size: float, width: float, most: int = 0) -> list[str]:
        """``text`` in lines of ``width`` mm; at ``most`` lines, the last one cut with "…"."""
        lines = simpleSplit(text, self.font[face], size, width * mm) or [""]
        if most and len(lines) > most:
            rest = " ".join(lines[most - 1 :])
            lines = [*lines[: most - 1], fitted(rest + " …", self.font[face], size, width)]
        return lines


def _qr(page: Page, matrix: list[list[bool]], x: float, y: float, size: float) -> None:
    """A QR code (its modules, quiet zone included) as filled squares, one rectangle per
    run of dark modules in a row."""
    module = size / len(matrix)
    path = page.canvas.beginPath()
    for row_index, row in enumerate(matrix):
        top = PAGE_HEIGHT - y - (row_index + 1) * module
        column = 0
        while column < len(row):
            if not row[column]:
                column += 1
                continue
            start = column
            while column < len(row) and row[column]:
                column += 1
            path.rect((x + start * module) * mm, top * mm, (column - start) * module * mm,
                      module * mm)  # fmt: skip
    page.canvas.setFillColor(INK)
    page.canvas.drawPath(path, stroke=0, fill=1)


def _header(page: Page, context: dict, table: PrintTable) -> float:
    """Title, players, badges and QR code; returns where the rule below them lies."""
    tournament, round_ = context["tournament"], context["round"]
    y = TOP
    page.text(LEFT, baseline(y, 7.5 * 1.3, 7.5), gettext("Score sheet").upper(), "bold", 7.5,
              ACCENT, spacing=0.08)  # fmt: skip
    y += 7.5 * 1.3 * PT + 0.6
    title = page.wrapped(tournament.name, "bold", 15, INTRO_WIDTH, most=2)
    y = page.lines(LEFT, y, title, "bold", 15, 15 * 1.15) + 0.8
    about = date_format(tournament.date, "DATE_FORMAT") if tournament.date else ""
    if tournament.venue:
        about = f"{about} · {tournament.venue}" if about else tournament.venue
    about_lines = page.wrapped(about, "sans", 8, INTRO_WIDTH, most=2)
    y = page.lines(LEFT, y, about_lines, "sans", 8, 10.4, MUTED)
    games = ngettext("%(counter)s game", "%(counter)s games", len(table.games)) % {
        "counter": len(table.games)
    }
    rest = f"· {tournament.get_rule_profile_display()}"
    bold_width = (
        stringWidth(games, page.font["bold"], 8) + stringWidth(" ", page.font["sans"], 8)
    ) * PT
    line = baseline(y, 10.4, 8)
    page.text(LEFT, line, games, "bold", 8)
    rest_lines = page.wrapped(rest, "sans", 8, INTRO_WIDTH - bold_width, most=1)
    page.text(LEFT + bold_width, line, rest_lines[0], "sans", 8, MUTED)
    y = page.lines(LEFT, y + 10.4 * PT, rest_lines[1:], "sans", 8, 10.4, MUTED) + 2.5
    y = _players(page, table, y)

    # The badges and the QR code, right-aligned in their 50 mm column.
    right = LEFT + GRID_WIDTH
    badges = ((gettext("table"), table.number, True), (gettext("round"), round_.number, False))
    x = right
    for label, value, strong in badges:
        x -= BADGE_WIDTH
        page.box(x, TOP, BADGE_WIDTH, BADGE_HEIGHT, fill=INK if strong else None, stroke=INK,
                 line=1, radius=1.5)  # fmt: skip
        middle = x + BADGE_WIDTH / 2
        page.text(middle, baseline(TOP + 1.35, 6.5 * 1.3, 6.5), label.upper(), "sans", 6.5,
                  BADGE_LABEL if strong else MUTED, "centre", 0.08)  # fmt: skip
        page.text(middle, baseline(TOP + 1.35 + 6.5 * 1.3 * PT, 21, 20), str(value), "bold", 20,
                  white if strong else INK, "centre")  # fmt: skip
        x -= BADGE_GAP
    qr_top = TOP + BADGE_HEIGHT + 2.0
    _qr(page, table.qr_modules, right - (QR_BOX + QR_SIZE) / 2, qr_top, QR_SIZE)
    caption = page.wrapped(gettext("Scan to enter the games online"), "sans", 6.5, QR_BOX)
    page.lines(right - QR_BOX / 2, qr_top + QR_SIZE, caption, "sans", 6.5, 6.5 * 1.2, MUTED,
               "centre")  # fmt: skip
    return max(y, TOP + HEAD_MIN) + 3.0


def _players(page: Page, table: PrintTable, y: float) -> float:
    """Position, start number and name of each player, the keeper's line shaded."""
    pos, start, name = LEFT + 4.0, LEFT + 17.0, LEFT + 20.0
    head = 7 * 1.3
    for x, label, align in ((pos, gettext("Pos."), "centre"), (start, gettext("No."), "right"),
                            (name, gettext("name"), "left")):  # fmt: skip
        page.text(x, baseline(y, head, 7), label.upper(), "sans", 7, MUTED, align, 0.05)
    y += head * PT + 0.6
    page.rule(LEFT, y, LEFT + INTRO_WIDTH, y, 0.6, RULE)
    line = 8.5 * 1.3
    height = line * PT + 1.5
    for player in table.players:
        if player.is_keeper:
            page.box(LEFT, y, INTRO_WIDTH, height, fill=SHADE)
        text_line = baseline(y + 0.75, line, 8.5)
        page.text(pos, text_line, str(player.position), "bold", 8.5, align="centre")
        page.text(start, text_line, str(player.start_number), "sans", 8.5, align="right")
        page.text(name, text_line, fitted(player.name, page.font["bold"], 8.5, 75), "bold", 8.5)
        role_x = name + 77.0
        if player.is_keeper:
            page.text(role_x, text_line, f"✎ {gettext('list keeper')}", "bold", 7.5)
        elif player.deals_first:
            page.text(role_x, text_line, gettext("deals game 1"), "sans", 7.5, MUTED)
        y += height
        page.rule(LEFT, y, LEFT + INTRO_WIDTH, y, 0.4, HAIR)
    return y


def _games_head(page: Page, table: PrintTable, top: float) -> list[float]:
    """The shaded heading row of the grid; returns the column edges."""
    width = position_width(table.size)
    edges = [LEFT]
    for column in (*FIXED_COLUMNS, *[width] * table.size):
        edges.append(edges[-1] + column)
    page.box(LEFT, top, GRID_WIDTH, GAMES_HEAD, fill=SHADE)
    page.rule(LEFT, top, LEFT + GRID_WIDTH, top, 0.4, RULE)
    for x in edges:
        page.rule(x, top, x, top + GAMES_HEAD, 0.4, RULE)
    labels = [gettext("game"), gettext("dealer"), gettext("kind"), gettext("Solo"),
              gettext("value")]  # fmt: skip
    label_line = baseline(top + 4.6, 7.5 * 1.3, 7.5)
    for index, label in enumerate(labels):
        middle = (edges[index] + edges[index + 1]) / 2
        size = 7.5
        while stringWidth(label, page.font["bold"], size) * PT > FIXED_COLUMNS[index] - 0.6:
            size -= 0.25  # a long word in another language: smaller, never cut
        page.text(middle, label_line, label, "bold", size, align="centre")
    for index, player in enumerate(table.players):
        x = edges[len(FIXED_COLUMNS) + index] + 1.5
        page.text(x, baseline(top + 0.8, 11 * 1.2, 11), str(player.position), "bold", 11)
        surname = fitted(player.last_name, page.font["sans"], 7.5, width - 3.0)
        page.text(x, baseline(top + 0.8 + 11 * 1.2 * PT, 7.5 * 1.3, 7.5), surname, "sans", 7.5)
    bottom = top + GAMES_HEAD
    page.rule(LEFT, bottom, LEFT + GRID_WIDTH, bottom, 1.0, INK)
    return edges


def _grid(
    page: Page, table: PrintTable, top: float, edges: list[float], body: float = GRID_BODY
) -> float:
    """One line per game with its number and dealer, the dealer's cell shaded where the
    dealer sits out, a strong rule after each dealing round, the spare lines for penalties
    (TSR 8.2.2: a penalty is a line of its own with the referee's initials) and the total
    line; returns the grid's bottom."""
    lines = table.games
    height = row_height(len(lines), body)
    width = position_width(table.size)
    fixed = len(FIXED_COLUMNS)
    games_bottom = top + height * len(lines)
    total_top = games_bottom + height * SPARE_ROWS
    full = total_top + TOTAL_ROW
    for line in lines:
        line_top = top + height * (line.number - 1)
        for position, out in enumerate(line.sits_out):
            if out:
                page.box(edges[fixed + position], line_top, width, height, fill=GRID_SHADE)
    right = LEFT + GRID_WIDTH
    strong = []
    for line in lines:
        y = top + height * line.number
        if line.ends_cycle or line is lines[-1]:
            strong.append(y)
        else:
            page.rule(LEFT, y, right, y, HAIRLINE / PT, RULE)
    for spare in range(1, SPARE_ROWS + 1):
        y = games_bottom + height * spare
        if spare == SPARE_ROWS:
            strong.append(y)
        else:
            page.rule(LEFT, y, right, y, HAIRLINE / PT, RULE)
    page.rule(LEFT, full, right, full, HAIRLINE / PT, RULE)
    for index, x in enumerate(edges):
        if index in (1, 3, 4):  # merged in the spare lines: game + dealer, kind to value
            bottom = games_bottom
        elif 0 < index < fixed:
            bottom = total_top  # the total label spans the fixed columns
        else:
            bottom = full
        page.rule(x, top, x, bottom, HAIRLINE / PT, RULE)
    for y in strong:
        page.rule(LEFT, y, right, y, STRONG / PT, INK)
    size = GRID_FONT / PT
    # The game numbers, then the dealers, each column as one run of text.
    for column, face, colour, attribute in ((0, "bold", INK, "number"),
                                            (1, "sans", MUTED, "dealer")):  # fmt: skip
        middle = (edges[column] + edges[column + 1]) / 2
        for line in lines:
            y = top + height * (line.number - 1) + height / 2 + GRID_FONT * 0.36
            page.text(middle, y, str(getattr(line, attribute)), face, size, colour, "centre")
    spare_label, note_label = gettext("Penalty"), gettext("referee's initials")
    for spare in range(SPARE_ROWS):
        y = games_bottom + height * (spare + 0.5) + GRID_FONT * 0.36
        page.text(LEFT + 1.5, y, spare_label, "sans", size, MUTED)
        page.text(edges[2] + 1, y, note_label, "sans", NOTE_FONT / PT, MUTED)
    total_line = total_top + TOTAL_ROW / 2 + GRID_FONT * 0.36
    page.text(LEFT + 1.5, total_line, gettext("total"), "bold", size)
    return full


def _foot(page: Page, context: dict, table: PrintTable, top: float) -> float:
    """The legend, the Pflichtsolo lines and the signatures; returns their bottom. Beside
    one Pflichtsolo per player stand the signatures; with more (a profile may ask for up to
    five) the lines take the page's width, wrapping their slots, and the signatures go below."""
    kinds = legend()
    text = gettext("Kind: %(legend)s. Solo: position of the soloist.") % {"legend": kinds}
    text += " " + gettext(
        "Value: the game's value. A penalty goes on a line of its own below the games, with "
        "the referee's initials."
    )
    if table.size == 5:
        text += " " + gettext("The dealer sits out (shaded).")
    y = page.lines(LEFT, top + 1.2, page.wrapped(text, "sans", 7, GRID_WIDTH), "sans", 7,
                   7 * 1.3, MUTED) + 3.0  # fmt: skip
    slots = len(context["pflichtsoli"])
    heading = 8 * 1.3 * PT + 0.6 + 1.0
    line = 8 * 1.3 * PT
    signatures_x, signatures_y, bottom = LEFT, y, y
    if slots:
        beside = slots == 1
        box = GRID_WIDTH * 0.63 if beside else GRID_WIDTH
        _heading(page, LEFT, y, box, gettext("Pflichtsolo"))
        played, shown = gettext("Pflichtsolo played in game"), gettext("vorgeführt")
        if not beside:
            shown = "V"  # the kind letter of the legend: five slots fit one line
        start = LEFT + 47 + stringWidth(played, page.font["sans"], 8) * PT
        slot = 16.4 + stringWidth(shown, page.font["sans"], 8) * PT
        per_line = max(1, int((LEFT + box - start) // slot))
        line_top = y + heading
        for player in table.players:
            line_top += 1.6
            text_line = baseline(line_top, 8 * 1.3, 8)
            page.text(LEFT, text_line, str(player.position), "bold", 8)
            page.text(LEFT + 5, text_line, fitted(player.name, page.font["sans"], 8, 40), "sans", 8)
            page.text(LEFT + 47, text_line, played, "sans", 8, MUTED)
            for index in range(slots):
                if index and index % per_line == 0:  # the next slots on a line of their own
                    line_top += line + 0.8
                    text_line = baseline(line_top, 8 * 1.3, 8)
                x = start + (index % per_line) * slot
                page.rule(x + 2, text_line + 0.6, x + 11, text_line + 0.6, 0.6, INK)
                page.box(x + 13, text_line - 2.3, 2.6, 2.6, stroke=INK, line=0.6)
                page.text(x + 16.4, text_line, shown, "sans", 8, MUTED)
            line_top += line
        bottom = line_top
        if beside:
            signatures_x = LEFT + GRID_WIDTH * 0.67
        else:
            signatures_y = line_top + 3.0
    width = LEFT + GRID_WIDTH - signatures_x if slots == 1 else GRID_WIDTH
    _heading(page, signatures_x, signatures_y, width, gettext("Signatures"))
    keeper = table.keeper
    lines = [gettext("list keeper") + (f": {keeper.name}" if keeper else ""),
             gettext("Countersignature (another player)")]  # fmt: skip
    # Stacked in their column beside the Pflichtsolo lines, side by side below them.
    stacked = slots == 1
    column = width if stacked else (width - 6.0) / 2
    line_top = signatures_y + heading
    for index, label in enumerate(lines):
        x = signatures_x if stacked or index == 0 else signatures_x + column + 6.0
        if stacked or index == 0:
            line_top += 7.0 if index == 0 else 6.0
        page.rule(x, line_top, x + column, line_top, 0.6, INK)
        text = fitted(label, page.font["sans"], 7, column)
        page.text(x, baseline(line_top + 0.6, 7 * 1.3, 7), text, "sans", 7, MUTED)
        if stacked or index == 1:
            line_top += 0.6 + 7 * 1.3 * PT
    return max(bottom, line_top)


class Ruler(Page):
    """A page that draws nothing: the layout functions run on it to measure a part."""

    def text(self, *args, **kwargs) -> None:
        pass

    def rule(self, *args, **kwargs) -> None:
        pass

    def box(self, *args, **kwargs) -> None:
        pass


def _heading(page: Page, x: float, y: float, width: float, label: str) -> None:
    page.text(x, baseline(y, 8 * 1.3, 8), label.upper(), "bold", 8, spacing=0.06)
    rule = y + 8 * 1.3 * PT + 0.6
    page.rule(x, rule, x + width, rule, 0.8, INK)


def sheets_pdf(context: dict, pages: int) -> bytes:
    """One page per table of ``context`` (``printpack.build_context``), numbered 1 to n of
    ``pages``, the pages of the whole pack."""
    font = faces()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    page = Page(canvas, font)
    tournament, round_ = context["tournament"], context["round"]
    when = date_format(context["generated_at"], "SHORT_DATETIME_FORMAT")
    footer = f"{tournament.name} · {round_} · " + gettext("Generated on %(when)s") % {"when": when}
    label = gettext("Page {page} of {pages}")
    foot_line = PAGE_HEIGHT - BOTTOM + 3.0 + (7.5 * 1.3 - 7.5 * (ASCENT + DESCENT)) / 2 * PT
    foot_line += ASCENT * 7.5 * PT
    ruler = Ruler(canvas, font)
    for number, table in enumerate(context["tables"], start=1):
        rule = _header(page, context, table)
        page.rule(LEFT, rule, LEFT + GRID_WIDTH, rule, 1.2, INK)
        grid_top = rule + 1.2 * PT + 3.0
        edges = _games_head(page, table, grid_top)
        # The game lines take what header and foot leave above the bottom margin.
        foot = _foot(ruler, context, table, 0.0)
        lines_top = grid_top + GAMES_HEAD + PT
        body = PAGE_HEIGHT - BOTTOM - lines_top - TOTAL_ROW - foot
        bottom = _grid(page, table, lines_top, edges, body)
        _foot(page, context, table, bottom)
        page.text(LEFT, foot_line, fitted(footer, font["sans"], 7.5, GRID_WIDTH - 30), "sans",
                  7.5, MUTED)  # fmt: skip
        page_label = label.format(page=number, pages=pages)
        page.text(LEFT + GRID_WIDTH, foot_line, page_label, "sans", 7.5, MUTED, "right")
        canvas.showPage()
    canvas.setTitle(f"{tournament.name} · {round_}")
    canvas.setCreator("Kreuzdame")
    canvas.save()
    return buffer.getvalue()
