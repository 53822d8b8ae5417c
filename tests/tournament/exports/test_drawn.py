"""The lists drawn with ReportLab (tournament/exports/drawn.py), read back with poppler."""

import re
import shutil
import subprocess
from itertools import groupby

import pytest

from tournament.exports.drawn import ListingColumn, ListingDocument, ListingSection, listing_pdf


def pages_of(content: bytes) -> list[str]:
    assert shutil.which("pdftotext"), "make test installs poppler-utils"
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"],  # noqa: S607
        input=content,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return text.split("\f")[:-1]


def words_of(content: bytes) -> str:
    """pdftotext's words with their boxes (``-bbox``), as XHTML text."""
    return subprocess.run(
        ["pdftotext", "-bbox", "-", "-"],  # noqa: S607
        input=content,
        capture_output=True,
        check=True,
    ).stdout.decode()


def document(ranked: int, absent: int = 3) -> ListingDocument:
    columns = [
        ListingColumn("Nr.", 9, "num"),
        ListingColumn("Name", 50),
        ListingColumn("Verein", None),
    ]
    ranked_lines = [([(str(n), None), (f"Rang Spieler{n}", None), ("Club", None)], False)
                    for n in range(1, ranked + 1)]  # fmt: skip
    absent_lines = [([(str(n), None), (f"Fehlt Spieler{n}", None), ("Club", None)], False)
                    for n in range(1, absent + 1)]  # fmt: skip
    return ListingDocument(
        title="Herbstturnier",
        meta=["5. Dezember 2026"],
        state="Endstand",
        generated="erstellt am 5. Dezember 2026",
        sections=[
            ListingSection(columns, ranked_lines),
            ListingSection(columns, absent_lines, "Nicht angetreten", "Ohne Platzierung."),
        ],
    )


@pytest.mark.parametrize("ranked", [*range(38, 50), *range(88, 98)])  # page 1 or 2 fills
def test_a_heading_never_stays_alone_at_the_foot_of_a_page(ranked):
    """Issue 35: "Nicht angetreten" sat alone at the bottom of a page, its names on the
    next. Whatever the length of the list above, heading, hint and first line share a page."""
    pages = pages_of(listing_pdf(document(ranked)))
    with_heading = [n for n, page in enumerate(pages) if "Nicht angetreten" in page]
    assert len(with_heading) == 1
    page = pages[with_heading[0]]
    assert "Ohne Platzierung." in page and "Fehlt Spieler1" in page
    # Every ranked line is printed once, the page numbers count the pages.
    assert sum(page.count("Rang Spieler") for page in pages) == ranked
    assert f"Seite {len(pages)} von {len(pages)}" in pages[-1]


def test_user_text_is_printed_as_it_was_typed_never_as_markup():
    hostile = '<font size="40">Groß</font> & <b>Co</b> "=1+1"'
    listing = document(1)
    listing.sections[0].lines[0][0][1] = (hostile, "zurückgezogen")
    text = "\n".join(pages_of(listing_pdf(listing)))
    for word in ("<font", 'size="40">Groß</font>', "&", "<b>Co</b>", '"=1+1"'):
        assert word in text.split(), word
    assert "(zurückgezogen)" in text


def test_a_wrapped_hebrew_name_starts_on_its_first_line_read_right_to_left():
    """ReportLab draws characters left to right as stored: the name is broken into the
    cell's lines first, then each line is turned round, so it reads as written."""
    name = "אחת שתיים שלוש ארבע חמש"  # one two three four five
    listing = ListingDocument(
        "T", [], sections=[ListingSection([ListingColumn("Name", 22)], [([(name, None)], False)])]
    )
    out = words_of(listing_pdf(listing))
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>', out)
    # pdftotext gives the glyphs as drawn, left to right: turned back, they are the words.
    words = [
        (float(y), -float(x), text[::-1]) for x, y, text in found if "\u05d0" <= text[0] <= "\u05ea"
    ]
    lines = [[w for _y, _x, w in sorted(g)] for _, g in groupby(sorted(words), key=lambda w: w[0])]
    assert lines == [["אחת", "שתיים", "שלוש"], ["ארבע", "חמש"]]


def test_a_heading_longer_than_its_column_widens_it_and_stays_apart_from_its_neighbour():
    """The tester's find: in English the standings' column "Penalties" (its width chosen for
    the German "Strafen") ran into "R3" as "R3Penalties". A fixed column is at least as wide
    as its heading; pdftotext reads each heading as a word of its own."""
    columns = [
        ListingColumn("Name", None),
        ListingColumn("R3", 8, "num"),
        ListingColumn("Penalties", 10, "num"),
        ListingColumn("Total", 11, "total"),
    ]
    lines = [([("Ada Adler", None), ("8", None), ("0", None), ("55", None)], False)]
    listing = ListingDocument("Cup", [], sections=[ListingSection(columns, lines)])
    out = words_of(listing_pdf(listing))
    words = {
        text: (float(x0), float(x1))
        for x0, x1, text in re.findall(
            r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>([^<]*)</word>', out
        )
    }
    assert {"R3", "Penalties", "Total"} <= set(words)
    assert words["R3"][1] < words["Penalties"][0] and words["Penalties"][1] < words["Total"][0]
