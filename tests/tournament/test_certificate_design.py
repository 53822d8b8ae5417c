"""The certificate design page (issue 38): directors set the title, the page, the signatures
and a logo (PNG or JPEG, at most 2 MB, checked by opening it); anything else is refused with
a message and nothing is written."""

from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.loader import render_to_string
from django.urls import reverse
from PIL import Image

from tests.factories import referee
from tournament.models import CertificateDesign

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
    assert design.logo_type == "image/png" and bytes(design.logo) == picture("PNG")
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
        URL,
    ):
        assert f'href="{url}"' in html
