"""German is the default language, English is complete, and the switch needs no URL prefix."""

import gettext
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse

from tournament.wording import glossary

LOCALE = Path(settings.BASE_DIR) / "tournament" / "locale" / "de" / "LC_MESSAGES"


def test_every_message_has_a_german_translation():
    """The .po file is the source of the German wording: `make messages` brings new messages
    in empty and reworded ones fuzzy (a guess); both must be translated before they ship."""
    po = polib.pofile(str(LOCALE / "django.po"))
    assert len(po) > 100
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    assert po.obsolete_entries() == []


def catalogue(mo_file: Path) -> dict:
    """The messages of a compiled catalogue, without its header (msgfmt drops some fields)."""
    with open(mo_file, "rb") as handle:
        messages = dict(gettext.GNUTranslations(handle)._catalog)
    del messages[""]
    return messages


def test_the_compiled_catalogue_matches_the_source(tmp_path):
    """The committed .mo is what compiling the .po gives now: no edit of the .po is left
    uncompiled (`make messages` compiles)."""
    po = polib.pofile(str(LOCALE / "django.po"))
    po.save_as_mofile(str(tmp_path / "django.mo"))
    assert catalogue(LOCALE / "django.mo") == catalogue(tmp_path / "django.mo")


@pytest.mark.django_db
def test_pages_are_german_by_default_and_english_after_the_switch(client):
    page = client.get(reverse("home")).content.decode()
    assert 'lang="de"' in page and "Login Turnierleitung" in page
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302 and response.url == "/"
    page = client.get(reverse("home")).content.decode()
    assert 'lang="en"' in page and "Directors’ login" in page and "Turnierleitung" not in page


@pytest.mark.django_db
def test_the_browser_language_is_honoured_without_url_prefix(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert "Directors’ login" in page
    assert client.get("/en/").status_code == 404


def test_the_readme_names_every_glossary_term():
    """The glossary is kept in tournament/wording/glossary.py; the README's language section shows
    it to directors and must not drift from it."""
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()
    section = readme.split("## Languages: German and English", 1)[1].split("\n## ", 1)[0]
    section = " ".join(section.split())
    assert [term for term in glossary.GLOSSARY if term not in section] == []
