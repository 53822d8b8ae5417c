"""The certificate design page (issue 38): directors set the title, the page, the signatures
and a logo (PNG or JPEG, at most 2 MB, checked by opening it); anything else is refused with
a message and nothing is written."""

from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from PIL import Image

from tests.factories import referee
from tournament.domain import certificates
from tournament.models import CertificateDesign, Prize, PrizeCategory

pytestmark = pytest.mark.django_db

URL = "/manage/certificates/"


def picture(fmt: str, size=(120, 60)) -> bytes:
    out = BytesIO()
    Image.new("RGB", size, (11, 93, 59)).save(out, fmt)
    return out.getvalue()


def form(**extra):
    return {
        "title": "Urkunde",
        "orientation": "landscape",
        "signature_left": "Hildegard Müller",
        "signature_left_role": "Turnierleitung",
        "signature_right": "",
        "signature_right_role": "",
        **extra,
    }


def stored():
    fields = ("title", "orientation", "logo_type", "version")
    return list(CertificateDesign.objects.values_list(*fields))


def test_the_address_is_the_one_the_spec_names():
    assert reverse("manage:certificate-design") == URL


def test_a_director_saves_the_design_with_a_logo_and_the_version_moves(director_client):
    page = director_client.get(URL)
    assert page.status_code == 200 and "Gestaltung der Urkunden" in page.content.decode()
    logo = SimpleUploadedFile("wappen.png", picture("PNG"), content_type="image/png")
    answer = director_client.post(URL, form(logo_file=logo))
    assert answer.status_code == 302
    design = CertificateDesign.current()
    assert (design.title, design.orientation, design.signature_left) == (
        "Urkunde", "landscape", "Hildegard Müller",
    )  # fmt: skip
    assert design.logo_type == "image/png"
    assert Image.open(BytesIO(bytes(design.logo))).size == (120, 60)
    assert design.version == 1
    assert "Ein Logo ist hochgeladen" in director_client.get(URL).content.decode()
    jpeg = SimpleUploadedFile("wappen.jpg", picture("JPEG"), content_type="image/jpeg")
    director_client.post(URL, form(logo_file=jpeg))
    design = CertificateDesign.current()
    assert design.logo_type == "image/jpeg" and design.version == 2
    director_client.post(URL, form(title="Ehrenurkunde"))  # no new file: the logo stays
    design = CertificateDesign.current()
    assert design.title == "Ehrenurkunde" and design.logo_type == "image/jpeg"
    director_client.post(URL, form(remove_logo="on"))
    design = CertificateDesign.current()
    assert bytes(design.logo) == b"" and design.logo_type == "" and design.version == 4
    assert CertificateDesign.objects.count() == 1


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("wappen.png", b"not a picture at all", "PNG- oder JPEG-Bild"),
        ("wappen.gif", picture("GIF"), "PNG- oder JPEG-Bild"),
        ("wappen.png", picture("PNG")[:60], "PNG- oder JPEG-Bild"),  # cut off
        ("wappen.png", b"\x89PNG" + b"0" * (2 * 1024 * 1024), "höchstens 2 MB"),
        ("wappen.svg", b'<svg xmlns="http://www.w3.org/2000/svg"/>', "PNG- oder JPEG-Bild"),
    ],
)
def test_a_bad_logo_is_refused_and_nothing_is_written(director_client, name, content, message):
    director_client.post(URL, form(title="Vorher"))
    before = stored()
    upload = SimpleUploadedFile(name, content, content_type="image/png")
    page = director_client.post(URL, form(title="Nachher", logo_file=upload))
    assert page.status_code == 200
    assert message in page.content.decode()
    assert stored() == before
    # The page shows what is stored, not the refused upload.
    assert "Kein Logo hochgeladen" in page.content.decode()


def test_a_huge_picture_in_a_small_file_is_refused(director_client):
    # 6000 x 6000 of one colour: a small PNG that would unpack into 108 MB.
    upload = SimpleUploadedFile("big.png", picture("PNG", (6000, 6000)), content_type="image/png")
    page = director_client.post(URL, form(logo_file=upload))
    assert page.status_code == 200 and "zu viele Bildpunkte" in page.content.decode()
    assert stored() == []


def phone_photo() -> bytes:
    """What many phone cameras write: a JPEG with a second picture (a depth map), which
    Pillow calls "MPO", taken sideways (EXIF orientation 6) and naming the camera."""
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: turn right to view
    exif[0x010F] = "Phonemaker"
    out = BytesIO()
    front = Image.new("RGB", (3000, 1500), (200, 10, 10))
    depth = Image.new("RGB", (3000, 1500), (0, 0, 0))
    front.save(out, "MPO", save_all=True, append_images=[depth], exif=exif.tobytes())
    assert Image.open(BytesIO(out.getvalue())).format == "MPO"
    return out.getvalue()


def test_a_phone_photo_is_taken_upright_small_and_without_its_metadata(director_client):
    upload = SimpleUploadedFile("IMG_2041.jpg", phone_photo(), content_type="image/jpeg")
    assert director_client.post(URL, form(logo_file=upload)).status_code == 302
    design = CertificateDesign.current()
    assert design.logo_type == "image/jpeg"
    kept = Image.open(BytesIO(bytes(design.logo)))
    assert kept.format == "JPEG" and getattr(kept, "n_frames", 1) == 1
    assert kept.size == (600, 1200)  # upright, the longest side 1200 pixels
    assert dict(kept.getexif()) == {}


def test_a_big_png_is_made_smaller_and_keeps_its_transparency(director_client):
    out = BytesIO()
    Image.new("RGBA", (2400, 600), (11, 93, 59, 0)).save(out, "PNG")
    upload = SimpleUploadedFile("wappen.png", out.getvalue(), content_type="image/png")
    director_client.post(URL, form(logo_file=upload))
    kept = Image.open(BytesIO(bytes(CertificateDesign.current().logo)))
    assert (kept.format, kept.size, kept.mode) == ("PNG", (1200, 300), "RGBA")


def test_the_first_save_makes_the_one_design_and_a_history_record(director_client, director_user):
    director_client.post(URL, form(title="Ehrenurkunde"))
    director_client.post(URL, form(title="Urkunde"))
    assert list(CertificateDesign.objects.values_list("pk", flat=True)) == [1]
    records = CertificateDesign.history.order_by("history_id")
    assert [(r.title, r.history_user_id) for r in records] == [
        ("Ehrenurkunde", director_user.pk),
        ("Urkunde", director_user.pk),
    ]


def test_two_first_saves_at_once_make_one_design(monkeypatch):
    """The second save found no design yet, but the first one has made it meanwhile: the
    second changes that row instead of adding another."""
    real = certificates.lock
    calls = []

    def meanwhile(rows, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            CertificateDesign.objects.create(pk=1, title="Erste")
            return CertificateDesign.objects.none()
        return real(rows, **kwargs)

    monkeypatch.setattr(certificates, "lock", meanwhile)
    certificates.save_design({"title": "Zweite"}, None)
    assert list(CertificateDesign.objects.values_list("pk", "title")) == [(1, "Zweite")]


def test_a_design_stored_before_is_the_one_changed(director_client):
    CertificateDesign.objects.create(pk=7, title="Alt")
    director_client.post(URL, form(title="Neu"))
    assert list(CertificateDesign.objects.values_list("pk", "title")) == [(7, "Neu")]


def test_an_english_director_reads_the_message_in_english(director_client):
    upload = SimpleUploadedFile("x.png", b"junk", content_type="image/png")
    page = director_client.post(URL, form(logo_file=upload), HTTP_ACCEPT_LANGUAGE="en")
    assert "The logo must be a PNG or JPEG picture." in page.content.decode()


def test_only_directors_see_the_page(client):
    assert client.get(URL).status_code == 302  # to the login
    client.force_login(referee(username="schiri"))
    assert client.get(URL).status_code == 403
    assert client.post(URL, form(title="Fremd")).status_code == 403
    assert stored() == []


def test_the_prize_page_links_the_files_and_the_design(tournament):
    html = render_to_string("tournament/manage/_prize_downloads.html", {"tournament": tournament})
    for url in (
        reverse("manage:payout-export", args=["herbst", "pdf"]),
        reverse("manage:payout-export", args=["herbst", "xlsx"]),
        reverse("manage:certificates", args=["herbst"]),
        reverse("manage:certificates-all", args=["herbst"]),
        URL + "?from=herbst",
    ):
        assert f'href="{url}"' in html


def test_the_page_speaks_german(director_client):
    page = director_client.get(URL).content.decode()
    for label in ("Titel", "Seite", "A4 hoch", "A4 quer", "Unterschrift links (Name)",
                  "Unterschrift rechts (Funktion)"):  # fmt: skip
        assert f"{label}<" in page or f">{label}" in page, label
    assert ">Title<" not in page and "A4 portrait" not in page


def test_the_page_leads_back_to_the_prize_page_it_came_from(director_client, tournament):
    page = director_client.get(URL + "?from=herbst").content.decode()
    assert f'href="{reverse("manage:prizes", args=["herbst"])}"' in page
    assert "Zurück zu den Preisen von „Herbstturnier“" in page
    saved = director_client.post(URL + "?from=herbst", form())
    assert saved["Location"] == URL + "?from=herbst"
    # Without it, or from a tournament the director does not run: the tournament list.
    for query in ("", "?from=fremd"):
        page = director_client.get(URL + query).content.decode()
        assert f'href="{reverse("manage:tournament-list")}" id="back"' in page


def test_the_prize_models_have_german_names():
    """The admin and every form built from the models name them in German."""
    with translation.override("de"):
        names = [
            str(model._meta.verbose_name) for model in (PrizeCategory, Prize, CertificateDesign)
        ]
        fields = [str(PrizeCategory._meta.get_field("order").verbose_name)]
    assert names + fields == ["Preiskategorie", "Preis", "Gestaltung der Urkunden", "Reihenfolge"]
