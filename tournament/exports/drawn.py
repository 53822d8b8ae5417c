"""Long lists drawn straight onto A4 with ReportLab, in the house style of the other PDFs.

WeasyPrint (``pdf``) lays out HTML and CSS and spends about half a millisecond on every
table cell; the standings of 400 players in 8 rounds are 5,600 cells, three seconds of the
worker's CPU on the hall laptop. A list of rows needs none of what CSS gives: its columns
have fixed widths, only names and clubs wrap. This module sets such a list with ReportLab's
flowing table (header row repeated on each page, a row never split across pages) at a
tenth of the cost, and looks like the WeasyPrint documents: DejaVu Sans, the same margins,
headings and rules, "title · generated" and "Page x of y" at the foot of every page.

User text (names, clubs, notes) reaches ReportLab's paragraph markup only escaped, and in
the order it is read in: ReportLab draws characters left to right as stored, so a Hebrew or
Arabic name is put into display order (and Arabic letters into their joined forms) first,
as WeasyPrint's text engine does by itself.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

import arabic_reshaper
from bidi import get_display
from django.utils.translation import gettext

from . import PdfUnavailable

try:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase import pdfmetrics, ttfonts
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import (
        BaseDocTemplate,
        CondPageBreak,
        Flowable,
        Frame,
        PageTemplate,
        Paragraph,
        Spacer,
        Table,
        TableStyle,
    )
except ImportError as exc:  # pragma: no cover - reportlab is a runtime requirement
    raise PdfUnavailable() from exc

# The faces, by the name this module uses, and the files of the DejaVu family (Debian:
# fonts-dejavu-core; the condensed faces come with fonts-dejavu-extra and fall back to the
# normal ones, which only wrap a little earlier).
FACES = {
    "sans": ("DejaVuSans.ttf", None),
    "bold": ("DejaVuSans-Bold.ttf", None),
    "condensed": ("DejaVuSansCondensed.ttf", "sans"),
    "condensed-bold": ("DejaVuSansCondensed-Bold.ttf", "bold"),
}
FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",  # Debian, Ubuntu
    "/usr/share/fonts/dejavu-sans-fonts",  # Fedora
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",  # Arch
    "/usr/local/share/fonts",
    "/Library/Fonts",  # macOS
    "~/Library/Fonts",
    "~/.local/share/fonts",
    "C:/Windows/Fonts",
)

INK, MUTED, QUIET, RULE = "#111111", "#666666", "#555555", "#bbbbbb"
BODY_SIZE, SMALL_SIZE, LEADING = 8.5, 7.5, 10.6
# The page as the other lists (print.css, @page report): A4, 13 mm on top, 12 mm at the
# sides, 15 mm below (the foot line sits in that margin).
TOP, SIDE, BOTTOM = 13 * mm, 12 * mm, 15 * mm
PAD_X, PAD_Y = 1 * mm, 0.75 * mm

_fonts_lock = threading.Lock()
_faces: dict[str, str] = {}


def _to_unicode_cmap(fontname: str, subset: Sequence[int]) -> str:
    """ReportLab's ToUnicode map of a font subset with characters beyond U+FFFF written as
    UTF-16 (a surrogate pair) as the PDF reference wants: ReportLab writes their code point
    as five hex digits, and a reader then copies "🂭" out of a list as "Ἂ"."""
    pairs = [f"<{index:02X}> <{chr(code).encode('utf-16-be').hex().upper()}>"
             for index, code in enumerate(subset)]  # fmt: skip
    return "\n".join(
        [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            f"/CIDSystemInfo << /Registry ({fontname}) /Ordering ({fontname}) /Supplement 0 >> def",
            f"/CMapName /{fontname} def",
            "/CMapType 2 def",
            "1 begincodespacerange",
            f"<00> <{len(subset) - 1:02X}>",
            "endcodespacerange",
            f"{len(subset)} beginbfchar",
            *pairs,
            "endbfchar",
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
    )


ttfonts.makeToUnicodeCMap = _to_unicode_cmap


def visual(text: str) -> str:
    """``text`` in the order its characters stand on paper, left to right: runs of Hebrew
    or Arabic turned round (Unicode bidirectional algorithm, a left-to-right line), Arabic
    letters joined. Text without such characters comes back as it is."""
    if all(ord(character) < 0x0590 for character in text):
        return text  # below Hebrew: no right-to-left script
    return get_display(arabic_reshaper.reshape(text), base_dir="L")


def _font_file(name: str) -> Path | None:
    for folder in FONT_DIRS:
        path = Path(folder).expanduser() / name
        if path.is_file():
            return path
    return None


def faces() -> dict[str, str]:
    """The registered ReportLab font name of each face; loaded once per process."""
    with _fonts_lock:
        if not _faces:
            found: dict[str, str] = {}
            for face, (filename, fallback) in FACES.items():
                path = _font_file(filename)
                if path is None:
                    if fallback is None:
                        raise PdfUnavailable(
                            gettext(
                                "PDF files cannot be made on this computer: the DejaVu fonts "
                                "are missing. The README says how to install them; "
                                "everything else works without them."
                            )
                        )
                    found[face] = found[fallback]
                    continue
                font = f"Kreuzdame-{face}"
                pdfmetrics.registerFont(TTFont(font, str(path)))
                found[face] = font
            _faces.update(found)
        return dict(_faces)


@dataclass
class ListingColumn:
    """One column: its heading, its width in millimetres (None: what the others leave),
    how its cells are set ("num": right-aligned, never wraps; "total": the same in bold;
    "text": wraps, in the condensed face) and its text size."""

    label: str
    width: float | None
    kind: str = "text"
    size: float = BODY_SIZE


@dataclass
class ListingSection:
    """A table with an optional heading and hint above it. ``lines`` are the rows, each a
    list of (text, note) per column (the note in grey brackets after the text) and whether
    the row is greyed out (withdrawn, disqualified)."""

    columns: list[ListingColumn]
    lines: list[tuple[list[tuple[str, str | None]], bool]]
    heading: str = ""
    hint: str = ""


@dataclass
class ListingDocument:
    title: str
    meta: list[str]  # lines below the title, grey
    state: str = ""  # the framed word before "generated" (final, provisional)
    state_alert: bool = False  # provisional: framed in red
    generated: str = ""  # "generated 29 November 2026, 14:32"
    sections: list[ListingSection] = field(default_factory=list)
    empty: str = ""  # said instead of the sections when none has a line
    landscape: bool = False


class _StateLine(Flowable):
    """The line under the title: the state framed, then when the list was made."""

    def __init__(self, state: str, alert: bool, generated: str, font: dict[str, str]) -> None:
        super().__init__()
        self.state, self.alert, self.generated, self.font = state, alert, generated, font
        self.height = LEADING + 1.4 * mm

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, self.height

    def draw(self) -> None:
        canvas, x, baseline = self.canv, 0.0, 0.5 * mm + 2.2
        if self.state:
            colour = colors.HexColor("#a4161a" if self.alert else INK)
            width = pdfmetrics.stringWidth(self.state, self.font["bold"], BODY_SIZE) + 5 * mm
            canvas.setStrokeColor(colour)
            canvas.setLineWidth(1)
            canvas.rect(0, 0, width, self.height, stroke=1, fill=0)
            canvas.setFillColor(colour)
            canvas.setFont(self.font["bold"], BODY_SIZE)
            canvas.drawString(2.5 * mm, baseline + 0.5 * mm, self.state)
            x = width + 2 * mm
        canvas.setFillColor(colors.HexColor("#444444"))
        canvas.setFont(self.font["sans"], BODY_SIZE)
        canvas.drawString(x, baseline + 0.5 * mm, self.generated)


class _Rule(Flowable):
    def __init__(self, thickness: float, space_after: float) -> None:
        super().__init__()
        self.thickness, self.space_after = thickness, space_after

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, self.thickness + self.space_after

    def draw(self) -> None:
        self.canv.setStrokeColor(colors.HexColor(INK))
        self.canv.setLineWidth(self.thickness)
        y = self.space_after + self.thickness / 2
        self.canv.line(0, y, self.width, y)


def _numbered_canvas(foot: str, page_label: str, font: str, width: float):
    """A canvas class that keeps every page until the end, then writes the foot line with
    "Page x of y" on each (the page count is known only then)."""

    class NumberedCanvas(Canvas):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._kept: list[dict] = []

        def showPage(self) -> None:
            self._kept.append(dict(self.__dict__))
            self._startPage()  # type: ignore[attr-defined]  # a fresh page, not in the stubs

        def save(self) -> None:
            total = len(self._kept)
            for number, state in enumerate(self._kept, start=1):
                self.__dict__.update(state)
                self.setFont(font, SMALL_SIZE)
                self.setFillColor(colors.HexColor(QUIET))
                self.drawString(SIDE, BOTTOM / 2 - 1 * mm, foot)
                label = page_label.format(page=number, pages=total)
                self.drawRightString(width - SIDE, BOTTOM / 2 - 1 * mm, label)
                super().showPage()
            super().save()

    return NumberedCanvas


def _wrapped_markup(text: str, font: str, size: float, width: float) -> str:
    """``text`` as paragraph markup. Right-to-left text is broken into the cell's lines
    first and each line turned into display order, so that a wrapped Hebrew name reads
    from its first word on the first line; other text is left to the paragraph to wrap."""
    if visual(text) == text:
        return escape(text)
    lines = simpleSplit(text, font, size, width - 2 * PAD_X) or [text]
    return "<br/>".join(escape(visual(line)) for line in lines)


def _fixed_width(column: ListingColumn, font: dict[str, str]) -> float:
    """A fixed column's width in points: as given, but never narrower than its heading (an
    English "Penalties" is longer than the German "Strafen" the widths were chosen for)."""
    assert column.width is not None
    heading = pdfmetrics.stringWidth(visual(column.label), font["bold"], SMALL_SIZE)
    return max(column.width * mm, heading + 2 * PAD_X)


def _table(section: ListingSection, width: float, font: dict[str, str]) -> Table:
    fixed = {i: _fixed_width(c, font) for i, c in enumerate(section.columns) if c.width is not None}
    flexible = [c for c in section.columns if c.width is None]
    rest = max(width - sum(fixed.values()), 10 * mm) / max(len(flexible), 1)
    widths = [fixed.get(i, rest) for i in range(len(section.columns))]
    styles = {}
    for muted in (False, True):
        colour = colors.HexColor(MUTED if muted else INK)
        for size in {c.size for c in section.columns}:
            styles[muted, size] = ParagraphStyle(
                f"cell-{muted}-{size}",
                fontName=font["condensed"],
                fontSize=size,
                leading=LEADING * size / BODY_SIZE,
                textColor=colour,
                splitLongWords=True,
            )
    data: list[list] = [[c.label for c in section.columns]]
    for cells, muted in section.lines:
        row: list = []
        for column, width, (text, note) in zip(section.columns, widths, cells, strict=True):
            if column.kind == "text":
                markup = _wrapped_markup(str(text), font["condensed"], column.size, width)
                if note:
                    markup += f' <font color="{MUTED}">({escape(visual(note))})</font>'
                row.append(Paragraph(markup, styles[muted, column.size]))
            else:
                row.append(str(text))
        data.append(row)
    commands: list = [
        ("FONT", (0, 0), (-1, -1), font["sans"], BODY_SIZE, LEADING),
        ("FONT", (0, 0), (-1, 0), font["bold"], SMALL_SIZE, LEADING),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("VALIGN", (0, 1), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD_X),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD_X),
        ("TOPPADDING", (0, 0), (-1, -1), PAD_Y),
        ("BOTTOMPADDING", (0, 0), (-1, -1), PAD_Y),
        ("LINEBELOW", (0, 0), (-1, 0), 0.9, colors.HexColor(INK)),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.HexColor(RULE)),
        ("TEXTCOLOR", (0, 0), (-1, -1), colors.HexColor(INK)),
    ]
    for index, column in enumerate(section.columns):
        if column.kind != "text":
            commands.append(("ALIGN", (index, 0), (index, -1), "RIGHT"))
        if column.kind == "total":
            commands.append(("FONT", (index, 1), (index, -1), font["bold"], BODY_SIZE, LEADING))
    for number, (_cells, muted) in enumerate(section.lines, start=1):
        if muted:
            commands.append(("TEXTCOLOR", (0, number), (-1, number), colors.HexColor(MUTED)))
    return Table(data, colWidths=widths, repeatRows=1, style=TableStyle(commands))


def listing_pdf(document: ListingDocument) -> bytes:
    """``document`` as an A4 PDF."""
    font = faces()
    size = landscape(A4) if document.landscape else A4
    width = size[0] - 2 * SIDE
    title = ParagraphStyle(
        "title", fontName=font["bold"], fontSize=15, leading=18, spaceAfter=1 * mm
    )
    meta = ParagraphStyle(
        "meta",
        fontName=font["sans"],
        fontSize=BODY_SIZE,
        leading=LEADING,
        textColor=colors.HexColor("#444444"),
        spaceAfter=1 * mm,
    )
    heading = ParagraphStyle(
        "heading",
        fontName=font["bold"],
        fontSize=11,
        leading=13.5,
        spaceBefore=6 * mm,
        spaceAfter=1.5 * mm,
    )
    hint = ParagraphStyle("hint", parent=meta, textColor=colors.HexColor(QUIET))
    story: list[Flowable] = [Paragraph(escape(visual(document.title)), title)]
    story += [Paragraph(escape(visual(line)), meta) for line in document.meta]
    story.append(_StateLine(document.state, document.state_alert, document.generated, font))
    story += [Spacer(width, 2 * mm), _Rule(1.2, 3 * mm)]
    sections = [s for s in document.sections if s.lines]
    if not sections and document.empty:
        story.append(Paragraph(escape(document.empty), meta))
    for section in sections:
        if section.heading:
            # The heading never stays alone at the foot of a page: it starts a new one
            # unless there is room for it, the hint, the header row and a few lines.
            story.append(CondPageBreak(heading.leading + 4 * LEADING + 12 * mm))
            story.append(Paragraph(escape(section.heading), heading))
        if section.hint:
            story.append(Paragraph(escape(section.hint), hint))
        story.append(_table(section, width, font))
    buffer = io.BytesIO()
    template = BaseDocTemplate(
        buffer, pagesize=size, title=document.title, creator="Kreuzdame"
    )  # fmt: skip
    page = Frame(SIDE, BOTTOM, width, size[1] - TOP - BOTTOM, 0, 0, 0, 0)
    template.addPageTemplates([PageTemplate(frames=[page])])
    foot = visual(" · ".join(part for part in (document.title, document.generated) if part))
    label = gettext("Page {page} of {pages}")
    canvas = _numbered_canvas(foot, label, font["sans"], size[0])
    template.build(story, canvasmaker=canvas)
    return buffer.getvalue()


def columns_of(heads: Sequence[tuple[str, str, bool]], widths: dict[str, float | None]):
    """ListingColumns from the (label, column class, numeric) triples of
    ``documents.printed``; ``widths`` in millimetres by column class."""
    result = []
    for label, css, numeric in heads:
        kind = "total" if css == "sum" else "num" if numeric else "text"
        result.append(ListingColumn(label, widths.get(css), kind))
    return result
