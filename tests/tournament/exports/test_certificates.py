"""Certificates (issue 38): one A4 page per prize winner, or per ranked player, in the site's
design (title, page, signatures, logo); read back for text that is missing or leaves the
frame, as the standings PDF is (test_exports.py)."""

from io import BytesIO

import pytest
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from tests.downloads import file_of
from tests.factories import EntryFactory, PlayerFactory, prize_category, settle
from tests.tournament.exports.test_exports import layout_text, squeeze, words
from tests.tournament.exports.test_payout import finish, make_cup
from tournament.domain.certificates import save_design
from tournament.exports.certificates import EVERYONE, WINNERS, certificates, certificates_pdf
from tournament.models import (
    CertificateDesign,
    Document,
    Game,
    Orientation,
    PrizeKind,
    Round,
    RoundStatus,
    Seat,
    Table,
)

pytestmark = pytest.mark.django_db

A4 = (595.3, 841.9)  # points, portrait
FRAME = 12 / 25.4 * 72  # the frame stands 12 mm inside the page's edge
LONG_NAME = "Maximiliane Alexandra Wilhelmine von Hohenzollern-Sigmaringen"  # 61 characters
LONG_TOURNAMENT = (
    "Großer Preis der Doppelkopffreunde Nordrhein-Westfalen zum fünfzigjährigen "
    "Vereinsjubiläum mit Damenwertung, Seniorenwertung und Jugendwertung 2026"
)
FIRST, LAST = LONG_NAME.split(" ", 1)
LONG_CLUB = "Doppelkopffreunde Rheinisch-Bergischer Kreis von 1987 e. V. Bergisch Gladbach"


def png(width=300, height=120) -> bytes:
    out = BytesIO()
    Image.new("RGB", (width, height), (11, 93, 59)).save(out, "PNG")
    return out.getvalue()


def design(orientation=Orientation.PORTRAIT, *, logo=True, title="Urkunde"):
    return save_design(
        {
            "title": title,
            "orientation": orientation,
            "signature_left": "Hildegard Müller-Lüdenscheidt",
            "signature_left_role": "Turnierleitung",
            "signature_right": "Karl-Heinz Oberschulte-Beckmann",
            "signature_right_role": "Erster Vorsitzender des Doppelkopfclubs",
        },
        None,
        logo=png() if logo else None,
    )


def pages(content: bytes) -> list[tuple[float, float]]:
    reader = PdfReader(BytesIO(content))
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages]


@pytest.fixture
def cup(tournament):
    return make_cup(tournament)


@pytest.fixture
def marathon(tournament):
    """Long everything: the tournament's name (145 characters), the players' names (61),
    clubs, points with five digits and a minus; two prizes, one of goods with a long text."""
    tournament.name = LONG_TOURNAMENT
    tournament.venue = "Bürgerhaus Musterstadt-Süd, Großer Saal im Obergeschoss"
    tournament.planned_rounds = 1
    tournament.save()
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            player=PlayerFactory(first_name=FIRST, last_name=f"{LAST}{n}", club=LONG_CLUB),
        )
        for n in range(1, 5)
    ]
    round_ = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.CLOSED)
    table = Table.objects.create(round=round_, number=1, size=4)
    for position, entry in enumerate(entries, start=1):
        Seat.objects.create(round=round_, table=table, entry=entry, position=position)
    Game.objects.create(table=table, number=1, kind="normal",
                        p1=23456, p2=12345, p3=-12345, p4=-23456)  # fmt: skip
    settle(tournament)
    goods = "Präsentkorb mit regionalen Spezialitäten aus dem Bergischen Land und ein Buch"
    prize_category(tournament, "Beste Leistung des Tages (Gesamtwertung aller Teilnehmenden)", 1,
             [(PrizeKind.AMOUNT, "1234.50"), (PrizeKind.GOODS, goods)])  # fmt: skip
    return tournament


def test_one_page_per_prize_winner_with_everything_on_it(cup):
    design(logo=False)
    content = certificates_pdf(cup)
    assert pages(content) == [pytest.approx(A4, abs=0.5)] * 4  # four prizes
    text = layout_text(content)
    sheets = text.split("\f")[:4]
    assert "Anna Muster" in sheets[0] and "1. Platz" in sheets[0] and "15,00 €" in sheets[0]
    assert "Gesamt" in sheets[0] and "DK Köln" in sheets[0]
    assert "Bernd Muster" in sheets[1] and "2. Platz" in sheets[1] and "Buch" in sheets[1]
    assert all("(geteilt)" in sheet and "Mitte" in sheet for sheet in sheets[2:])
    for sheet in sheets:
        assert "Herbstturnier" in sheet and "5. Dezember 2026 · Bürgerhaus" in sheet
        assert "Urkunde" in sheet and "Hildegard Müller-Lüdenscheidt" in sheet
        assert "Turnierleitung" in sheet and "vorläufig" in sheet
    finish(cup)
    assert "vorläufig" not in layout_text(certificates_pdf(cup))


def test_every_ranked_player_gets_place_points_and_rounds(cup):
    design(Orientation.LANDSCAPE)
    content = certificates_pdf(cup, EVERYONE)
    assert pages(content) == [pytest.approx(A4[::-1], abs=0.5)] * 5  # landscape, five players
    sheets = layout_text(content).split("\f")
    assert "Anna Muster" in sheets[0] and "1. Platz von 5 Spielern" in sheets[0]
    assert "3 Punkte in 1 Runde" in sheets[0]
    assert "Emil Muster" in sheets[4] and "-2 Punkte in 1 Runde" in sheets[4]
    assert "5. Platz von 5 Spielern" in sheets[4]
    # Clara and Dieter share the third place.
    assert sum("3. Platz von 5 Spielern (geteilt)" in sheet for sheet in sheets) == 2


@pytest.mark.parametrize("orientation", [Orientation.PORTRAIT, Orientation.LANDSCAPE])
@pytest.mark.parametrize("logo", [True, False])
@pytest.mark.parametrize("which", ["winners", EVERYONE])
def test_long_texts_stay_inside_the_frame_on_one_page_each(marathon, orientation, logo, which):
    title = "Urkunde für hervorragende Leistungen beim Doppelkopf"
    design(orientation, logo=logo, title=title)
    content = certificates_pdf(marathon, which)
    size = A4 if orientation == Orientation.PORTRAIT else A4[::-1]
    expected = 2 if which == "winners" else 4
    assert pages(content) == [pytest.approx(size, abs=0.5)] * expected  # nothing spilled over
    text = squeeze(layout_text(content))
    for part in (title, LONG_TOURNAMENT, LONG_CLUB, "Hildegard Müller-Lüdenscheidt",
                 "Erster Vorsitzender des Doppelkopfclubs", f"{LONG_NAME}1"):  # fmt: skip
        assert squeeze(part) in text, part
    if which == "winners":
        assert squeeze("1.234,50 €") in text and squeeze("Präsentkorb mit") in text
    else:
        assert squeeze("23456 Punkte") in text and squeeze("-23456 Punkte") in text
    width, height = size
    for page in words(content):
        assert page
        # Every word inside the frame: nothing cut at an edge.
        assert all(x0 > FRAME and x1 < width - FRAME for x0, x1, _y, _w in page)
        assert all(FRAME < y < height - FRAME - 8 for _x0, _x1, y, _w in page)
        # The signatures below everything else: no text runs into them.
        signed = min(y for _x0, _x1, y, w in page if w == "Hildegard")
        above = [y for _x0, _x1, y, w in page if y < signed - 1]
        roles = {"Hildegard", "Müller-Lüdenscheidt", "Karl-Heinz", "Oberschulte-Beckmann",
                 "Turnierleitung", "Erster", "Vorsitzender", "des", "Doppelkopfclubs"}  # fmt: skip
        assert {w for _x0, _x1, y, w in page if y >= signed - 1} <= roles
        assert max(above) < signed - 20


def test_the_director_downloads_certificates_made_anew_for_a_new_design(director_client, cup):
    design(logo=False)
    url = reverse("manage:certificates", args=[cup.slug])
    first = director_client.get(url)
    assert 'filename="herbst-urkunden-vorlaeufig.pdf"' in first["Content-Disposition"]
    assert len(pages(file_of(first))) == 4
    everyone = director_client.get(reverse("manage:certificates-all", args=[cup.slug]))
    assert 'filename="herbst-urkunden-alle-vorlaeufig.pdf"' in everyone["Content-Disposition"]
    assert len(pages(file_of(everyone))) == 5
    made = Document.objects.get(kind="certificates-pdf")
    assert made.variant == str(CertificateDesign.current().version)
    design(Orientation.LANDSCAPE, logo=False)  # a new design: a new file, the old one pruned
    again = director_client.get(url)
    assert pages(file_of(again))[0] == pytest.approx(A4[::-1], abs=0.5)
    variants = Document.objects.filter(kind="certificates-pdf").values_list("variant", flat=True)
    assert list(variants) == [str(CertificateDesign.current().version)]


def test_the_logo_is_printed(cup):
    design(logo=True)
    content = certificates_pdf(cup)
    reader = PdfReader(BytesIO(content))
    assert all(len(page.images) == 1 for page in reader.pages)
    jpeg = BytesIO()
    Image.new("RGB", (200, 100), (200, 0, 0)).save(jpeg, "JPEG")
    save_design({}, None, logo=jpeg.getvalue())
    reader = PdfReader(BytesIO(certificates_pdf(cup)))
    assert all(len(page.images) == 1 for page in reader.pages)


def test_no_prize_yet_gives_one_page_that_says_so(tournament):
    text = layout_text(certificates_pdf(tournament))
    assert "Keine Urkunden" in text and len(text.strip().split("\f")) == 1
    assert "Urkunde" in text  # the design was never saved: the default one


def test_without_signature_names_each_page_still_has_two_lines_to_sign(cup):
    save_design({"title": "Urkunde"}, None)
    sheets = layout_text(certificates_pdf(cup)).split("\f")[:4]
    for sheet in sheets:
        assert "Turnierleitung" in sheet and "Veranstalter" in sheet
    # Set by the director: only what was set.
    design(logo=False)
    assert "Veranstalter" not in layout_text(certificates_pdf(cup))


@pytest.mark.parametrize("which", [WINNERS, EVERYONE])
def test_provisional_is_what_the_list_behind_the_pages_says(cup, which):
    pages, provisional = certificates(cup, which)
    assert pages and provisional
    finish(cup)
    assert certificates(cup, which)[1] is False
