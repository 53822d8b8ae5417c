"""Every page of the site, rendered with the demo tournament (two closed rounds, a running one
with sheets in progress, penalties, a referee call, teams), checked the way a person and a
screen reader meet it:

(a) no id occurs twice on a page;
(b) every <label for=...> names an element of the page, and every visible form control has a
    label (a <label>, aria-label or aria-labelledby);
(c) in English, no German word outside the glossary (tournament/wording/glossary.py) — the players'
    names, clubs, teams and the referees' notes are the users' own words and are left out;
(d) in German, none of the obvious English leftovers;
(e) in English, headings, column headers and labels start with a capital, and dates read
    "23 Nov 2026, 15:19" (not "11/23/2026 3:19 p.m.").

The PDFs and workbooks the office downloads are read back (pdftotext, openpyxl) for (c) and
(d); the catalogue's English messages are checked for (c) one by one, since many of them (errors,
confirmations) appear on no page rendered here.

The routes and the roles come from tests/test_url_matrix.py and tests/tournament/
test_permissions.py; the pages are rendered once per language for the whole module. A failure
lists page -> offending ids, controls or words.
"""

import datetime
import io
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser

import openpyxl
import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import formats, translation

from tests.test_url_matrix import PUBLIC, World
from tests.tournament.test_permissions import DIRECTOR_PAGES, OFFICE_PAGES
from tournament.management.commands.demo import DEMO_SLUG
from tournament.models import (
    Entry,
    Penalty,
    Player,
    Prize,
    PrizeCategory,
    RefereeCall,
    Round,
    RoundStatus,
    Series,
    Sheet,
    Team,
    Tournament,
)
from tournament.wording import glossary

# The checks read pages rendered once (the fixture `site`); the marker makes pytest-django set up
# the test database before that fixture runs.
pytestmark = pytest.mark.django_db

# ---------------------------------------------------------------------------------------------
# The detector


# German words that must never reach an English page, whatever the catalogue says: the words
# of the issue and the everyday words of a tournament. Compound words are caught by STEMS.
GERMAN_WORDS = {
    "abgeben", "abbrechen", "aber", "alle", "anmelden", "auch", "bitte", "das", "dem", "den",
    "der", "des", "die", "ein", "eine", "einen", "einer", "erste", "gespeichert", "geringfügig",
    "gesperrt", "ist", "kein", "mit", "nach", "nicht", "noch", "oder", "runde", "runden",
    "schwerwiegend", "speichern", "spiel", "spiele", "spieler", "spielliste", "spiellisten",
    "strafe", "strafen", "tisch", "tische", "unerheblich", "und", "verwarnung", "vom", "von",
    "wird", "zurück", "zur", "zum", "sonderpunkte", "augen", "nachspielzeit", "schiedsgericht",
    "schiedsrichter", "rechner", "startnummer", "verein", "vorname", "nachname",
    "tischplan", "leinwand", "wo", "sitze", "ich", "abmelden", "einchecken", "bestätigen",
}  # fmt: skip
STEMS = ("spiel", "straf", "tisch", "turnier", "schiedsricht", "rechner", "runde")
# English words the German catalogue uses as German too (they show on English pages as well).
ALSO_ENGLISH = {"start", "team", "teams", "status", "code", "name", "position", "import", "pdf"}

# In German pages: English words that have no business there (button and heading words).
ENGLISH_WORDS = {
    "the", "and", "with", "save", "cancel", "round", "rounds", "table", "tables", "player",
    "players", "penalty", "penalties", "standings", "settings", "submit", "delete", "back",
    "game", "games", "sheet", "sheets", "score", "search", "close", "yes", "wins", "points",
    "none", "total", "kind", "rank", "referee", "confirm", "print", "show", "edit", "add",
    "remove", "release", "draw", "reason", "category", "note", "warning", "minor", "serious",
    "of", "to", "is", "for", "by", "your", "this", "are", "has", "been", "must", "will",
    "please", "new", "calculator", "negligible",
}  # fmt: skip

PO_FILE = settings.BASE_DIR / "tournament" / "locale" / "de" / "LC_MESSAGES" / "django.po"
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")
UMLAUT = re.compile(r"[ÄÖÜäöüß]")


def catalogue_words() -> set[str]:
    """Words the German catalogue uses that no English message uses: German by construction."""
    po = polib.pofile(str(PO_FILE))
    english, german = set(), set()
    for entry in po:
        english.update(w.lower() for w in WORD.findall(f"{entry.msgid} {entry.msgid_plural}"))
        strings = [entry.msgstr, *entry.msgstr_plural.values()]
        german.update(w.lower() for w in WORD.findall(" ".join(strings)))
    return german - english


def is_german(word: str, vocabulary: set[str]) -> bool:
    low = word.lower()
    if len(low) < 2 or low in ALSO_ENGLISH:
        return False
    return bool(
        UMLAUT.search(word)
        or low in GERMAN_WORDS
        or low in vocabulary
        or any(stem in low for stem in STEMS)
    )


URL = re.compile(r"https?://\S+|(?<!\w)/[\w\-./?=&%]*")
# Not words of the page: {placeholders} of a script's messages, JSON examples, identifiers and
# file names (games_per_round_4, players.csv).
CODE = re.compile(r"\{[^{}]*\}|\w+(?:[._]\w+)+")


def without(text: str, phrases: list[str]) -> str:
    """The text without the phrases (whole words only) and without links: a URL's path is an
    address, not a word of the page."""
    text = CODE.sub(" ", URL.sub(" ", text))
    for phrase in phrases:
        text = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", " ", text)
    return text


# ---------------------------------------------------------------------------------------------
# The page reader


TEXT_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt", "hx-confirm", "data-confirm")
CONTROLS = {"input", "select", "textarea"}
NOT_LABELLED = {"hidden", "submit", "button", "reset", "image"}
# Elements whose text is a heading or a label: in English it starts with a capital letter.
HEADINGS = {"h1", "h2", "h3", "h4", "th", "dt", "label", "legend", "button", "caption", "summary"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


@dataclass
class Page:
    """What the checks need to know about one HTML page."""

    ids: list[str] = field(default_factory=list)
    label_targets: list[str] = field(default_factory=list)
    controls: list[dict] = field(default_factory=list)  # attrs + "in_label"
    texts: list[str] = field(default_factory=list)  # visible text in the page's language
    headings: list[tuple[str, str]] = field(default_factory=list)  # (tag, its first text)


class Reader(HTMLParser):
    def __init__(self, page_language: str):
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.stack: list[tuple[str, bool, bool]] = []  # tag, other language, inside label
        self.page_language = page_language
        self.skip = 0  # inside <script>/<style>
        self.heading = ""  # a heading element waiting for its first text

    def _other_language(self, attrs: dict) -> bool:
        if "lang" in attrs:
            return not (attrs["lang"] or "").startswith(self.page_language)
        return bool(self.stack and self.stack[-1][1])

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v or "") for k, v in attrs}
        if tag == "html":
            self.page_language = attrs.get("lang", self.page_language)
        other = self._other_language(attrs)
        in_label = tag == "label" or bool(self.stack and self.stack[-1][2])
        if "id" in attrs:
            self.page.ids.append(attrs["id"])
        if tag == "label" and attrs.get("for"):
            self.page.label_targets.append(attrs["for"])
        if tag in CONTROLS:
            self.page.controls.append({**attrs, "tag": tag, "in_label": in_label})
        if not other:
            for name in TEXT_ATTRIBUTES:
                if attrs.get(name):
                    self.page.texts.append(attrs[name])
            if tag == "input" and attrs.get("type") in {"submit", "button"} and attrs.get("value"):
                self.page.texts.append(attrs["value"])
        if tag in {"script", "style"}:
            self.skip += 1
        if tag in HEADINGS and not other:
            self.heading = tag
        if tag not in VOID:
            self.stack.append((tag, other, in_label))

    def handle_endtag(self, tag):
        if tag == self.heading:
            self.heading = ""
        if tag in {"script", "style"}:
            self.skip = max(0, self.skip - 1)
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data):
        if self.skip or not data.strip():
            return
        if self.stack and self.stack[-1][1]:
            return
        self.page.texts.append(data)
        if self.heading:
            self.page.headings.append((self.heading, data.strip()))
            self.heading = ""


def read(html: str, language: str) -> Page:
    reader = Reader(language)
    reader.feed(html)
    reader.close()
    return reader.page


def json_strings(value) -> list[str]:
    """The texts of a JSON answer (the projector's data)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in json_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in json_strings(v)]
    return []


# ---------------------------------------------------------------------------------------------
# The site, rendered once


class DemoWorld(World):
    """The demo tournament in the shape test_url_matrix's URL builders expect."""

    def __init__(self):  # no super(): the demo data replaces the matrix's small world
        self.tournament = Tournament.objects.get(slug=DEMO_SLUG)
        self.slug = self.tournament.slug
        running = Round.objects.get(tournament=self.tournament, status=RoundStatus.RELEASED)
        self.running = running
        self.table = running.tables.get(number=1)
        self.token = self.table.token
        users = get_user_model().objects
        self.director = users.get(username="leitung")
        self.referee = users.get(username="schiri")
        self.player = users.create_user("zuschauer", password="x-secret-9")
        self.other_director = self.director


@dataclass
class Visit:
    """One page as somebody sees it."""

    name: str
    role: str  # anonymous (also the list keeper, by the table's link), player, referee, director
    url: str
    form: dict | None = None  # posted: the page that answers a form with errors
    host: str = "testserver"


def visits(world: DemoWorld) -> list[Visit]:
    """Every GET route of the URL matrix for the roles that see it, and the variants that show
    more: the running round's sheets (one with an error, a 5-table), a filled calculator,
    filters, forms with errors, the error pages."""
    slug, running = world.slug, world.running.number
    entry = Entry.objects.filter(tournament=world.tournament).first()
    penalties = Penalty.objects.filter(table__round__tournament=world.tournament)
    # test_permissions' builders assume the single penalty of their own small world
    special = {"penalty-detail": {"slug": slug, "pk": penalties.first().pk}}
    pages = [
        Visit(name, "anonymous", reverse(name, kwargs=kwargs_for(world)))
        for name, (kwargs_for, method, statuses) in sorted(PUBLIC.items())
        if method == "get" and statuses["anonymous"] == 200
    ]
    for name, (kwargs_for, method, status) in sorted(DIRECTOR_PAGES.items()):
        if method != "get":
            continue
        kwargs = special.get(name) or kwargs_for(world.tournament, entry)
        url = reverse(f"manage:{name}", kwargs=kwargs)
        # The personal data file (GDPR Art. 15) holds the stored texts as they were written
        # (a history reason in the language of its day): data, not the site's words.
        if status == 200 and name != "player-data":
            pages.append(Visit(f"manage:{name}", "director", url))
        if OFFICE_PAGES.get(name) == 200 or name == "referee-home":
            pages.append(Visit(f"manage:{name}", "referee", url))

    tables = list(world.running.tables.order_by("number"))
    five = next((t for t in tables if t.size == 5), tables[0])
    for table in (tables[1], five):  # table 2 carries the demo's typo
        number = table.number
        desk = reverse("manage:sheet-desk", args=[slug, running, number])
        add = reverse("manage:penalty-add", args=[slug, running, number])
        pages += [
            Visit(f"keeper-sheet {number}", "anonymous", f"/tisch/{table.token}/"),
            Visit(f"keeper-status {number}", "anonymous", f"/tisch/{table.token}/stand/"),
            Visit(f"sheet-desk {number}", "director", desk),
            Visit(f"sheet-desk {number} cumulative", "director", f"{desk}?cumulative=1"),
            Visit(f"sheet-history {number}", "director", desk + "history/"),
            Visit(f"penalty-add {number}", "referee", f"{add}?spiel=1"),
            Visit(f"penalty-add {number} invalid", "referee", add, {"game_number": ""}),
        ]
    pages.append(Visit("keeper-sheet edit", "anonymous", f"/tisch/{world.token}/?edit=1"))
    # The player's page for the day (issue 35): a player of the running round's first table,
    # with two closed rounds behind them.
    seated = world.table.seats.order_by("position").first().entry
    pages.append(Visit("personal day", "anonymous", f"/anmeldung/{seated.token}/"))
    for number in (1, running):
        pages += [
            Visit(f"round-detail {number}", "director", f"/manage/{slug}/rounds/{number}/"),
            Visit(f"board {number}", "director", reverse("manage:board", args=[slug, number])),
        ]
    for penalty in penalties:
        url = reverse("manage:penalty-detail", args=[slug, penalty.pk])
        pages.append(Visit(f"penalty-detail {penalty.pk}", "referee", url))
    for state in ("draft", "signed", "revoked"):
        url = reverse("manage:penalty-list", args=[slug]) + f"?state={state}"
        pages.append(Visit(f"penalty-list {state}", "referee", url))

    team = Team.objects.filter(tournament=world.tournament).first()
    sit = reverse("where-do-i-sit", args=[slug])
    facts = "re_eyes=130&table_size=4&dealer=1&kind=normal&re=1&re=2&announced_re=on"
    facts += "&absage_re=90&sonderpunkte_re=1"
    solo = "re_eyes=70&table_size=5&dealer=2&kind=solo&re=3&announced_kontra=on"
    upload = io.BytesIO(b"first name;last name;club\nAda;Lovelace;Chess Club\n;;\n")
    upload.name = "players.csv"
    for what in ("standings", "teams", "rounds"):
        for fmt in ("pdf", "xlsx"):
            url = reverse("manage:standings-export", args=[slug, what, fmt])
            pages.append(Visit(f"export {what}.{fmt}", "director", url))
    pages += [
        Visit("public-standings team", "anonymous", f"/t/{slug}/stand/?team={team.name}"),
        Visit("manage:standings team", "director", f"/manage/{slug}/standings/?team={team.name}"),
        Visit("where-do-i-sit found", "anonymous", f"{sit}?q={entry.start_number}"),
        Visit("where-do-i-sit unknown", "anonymous", f"{sit}?q=999"),
        Visit("calculator result", "anonymous", f"/rechner/?{facts}"),
        Visit("calculator solo", "anonymous", f"/rechner/?{solo}"),
        Visit("calculator incomplete", "anonymous", "/rechner/?re_eyes="),
        Visit("keeper-calculator result", "anonymous", f"/tisch/{world.token}/rechner/?{facts}"),
        Visit("entry-list filtered", "director", f"/manage/{slug}/?status=withdrawn"),
        Visit("entry-add invalid", "director", reverse("manage:entry-add", args=[slug]), {}),
        Visit("tournament-create invalid", "director", reverse("manage:tournament-create"), {}),
        Visit("tournament-edit invalid", "director", f"/manage/{slug}/edit/", {"name": ""}),
        Visit("import preview", "director", f"/manage/{slug}/import/", {"file": upload}),
        Visit("login failed", "anonymous", reverse("login"), {"username": "x", "password": "y"}),
        Visit("404", "anonymous", "/no-such-page/"),
        Visit("403", "player", f"/manage/{slug}/"),
        Visit("403 referee", "referee", f"/manage/{slug}/edit/"),
        Visit("400 wrong host", "anonymous", "/", host="wrong.example"),
    ]
    return pages


def login_of(world: DemoWorld, role: str, client: Client) -> None:
    user = {"director": world.director, "referee": world.referee, "player": world.player}
    if role in user:
        client.force_login(user[role])


def user_words() -> list[str]:
    """The users' own words in the demo data: names, clubs, teams, notes, reasons."""
    words = set()
    for player in Player.objects.all():
        words |= {player.first_name, player.last_name, player.club}
    words |= set(Team.objects.values_list("name", flat=True))
    for tournament in Tournament.objects.all():
        words |= {tournament.name, tournament.venue}
    for series in Series.objects.all():
        words |= {series.name, series.description}
    words |= set(Penalty.objects.values_list("reason", flat=True))
    words |= set(Penalty.objects.values_list("revoke_reason", flat=True))
    words |= set(RefereeCall.objects.values_list("note", flat=True))
    words |= set(Sheet.objects.values_list("extra_reason", flat=True))
    words |= set(PrizeCategory.objects.values_list("name", flat=True))
    words |= set(Prize.objects.values_list("goods", flat=True))
    for user in get_user_model().objects.all():
        words |= {user.username, user.first_name, user.last_name}
    return sorted((w for w in words if w), key=len, reverse=True)


PDFTOTEXT = shutil.which("pdftotext") or "/usr/bin/pdftotext"  # poppler-utils
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def as_text(kind: str, content: bytes) -> str:
    """Pages and JSON as they are; a PDF's and a workbook's text, to read them like a page."""
    if kind in {"text/html", "application/json"}:
        return content.decode()
    if kind == "application/pdf":
        command = [PDFTOTEXT, "-", "-"]  # a fixed program; the PDF goes in on stdin
        run = subprocess.run(command, input=content, capture_output=True, check=True)  # noqa: S603
        return run.stdout.decode()
    if kind == XLSX:
        book = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
        cells = [
            str(value)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
            for value in row
            if isinstance(value, str)
        ]
        return "\n".join(cells)
    return ""


def fetch(world, language: str) -> dict[str, tuple[str, str]]:
    """page -> (content type, text) for every page in one language."""
    pages = {}
    for visit in visits(world):
        client = Client(HTTP_ACCEPT_LANGUAGE=language, raise_request_exception=False)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        login_of(world, visit.role, client)
        if visit.form is None:
            response = client.get(visit.url, HTTP_HOST=visit.host)
        else:
            if "file" in visit.form:
                visit.form["file"].seek(0)
            response = client.post(visit.url, visit.form)
        kind = response.get("Content-Type", "").split(";")[0]
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = as_text(kind, body)
        pages[f"{visit.name} ({visit.role}, {response.status_code})"] = (kind, text)
    with translation.override(language):
        pages["500"] = ("text/html", render_to_string("500.html"))
    return pages


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker, tmp_path_factory):
    """Both languages' pages and the users' words, from the demo data (rolled back after)."""
    quiet = override_settings(
        # Documents made at once, into a folder of the tests (as tests/conftest.py does).
        TASKS={
            "default": {
                "BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
                "QUEUES": ["documents", "mail"],  # both: a task module may load under it
            }
        },
        DOCUMENTS_DIR=tmp_path_factory.mktemp("documents"),
        PRINT_PACK_ON_DRAW=False,
        BACKUP_ON_ROUND_CLOSE=False,
        STANDINGS_CACHE_SECONDS=0,
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        ALLOWED_HOSTS=["testserver"],
    )
    with django_db_blocker.unblock(), quiet, transaction.atomic():
        call_command("demo", stdout=io.StringIO())
        world = DemoWorld()
        result = {"en": fetch(world, "en"), "de": fetch(world, "de"), "users": user_words()}
        transaction.set_rollback(True)
    return result


def html_pages(site, language):
    for name, (kind, body) in site[language].items():
        if kind == "text/html":
            yield name, read(body, language)


def texts(site, language):
    """page -> the page's texts in its language, without the users' own words."""
    for name, (kind, body) in site[language].items():
        if kind == "text/html":
            strings = read(body, language).texts
        elif kind == "application/json":
            strings = json_strings(json.loads(body))
        elif body:  # a PDF or a workbook
            strings = [body]
        else:
            continue
        yield name, without(" ".join(strings), site["users"])


def report(problems: dict[str, list[str]]) -> str:
    lines = [f"{page} -> {', '.join(sorted(set(found)))}" for page, found in problems.items()]
    return "\n" + "\n".join(sorted(lines))


# ---------------------------------------------------------------------------------------------
# The checks


def test_the_pages_are_all_there(site):
    """Guards the checks below against rendering error pages only."""
    statuses = {name.rsplit(", ", 1)[1].rstrip(")") for name in site["en"] if ", " in name}
    assert "200" in statuses
    assert len(site["en"]) >= 60
    broken = [name for name in site["en"] if name.endswith(", 500)")]
    assert not broken, broken


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_id_occurs_twice_on_a_page(site, language):
    problems = {}
    for name, page in html_pages(site, language):
        seen, twice = set(), []
        for element_id in page.ids:
            if element_id in seen:
                twice.append(element_id)
            seen.add(element_id)
        if twice:
            problems[name] = twice
    assert not problems, report(problems)


def unlabelled(page: Page) -> list[str]:
    ids = set(page.ids)
    found = [f"label for={target!r} names no element" for target in page.label_targets
             if target not in ids]  # fmt: skip
    targets = set(page.label_targets)
    for control in page.controls:
        if control["tag"] == "input" and control.get("type", "text") in NOT_LABELLED:
            continue
        named = (
            control["in_label"]
            or control.get("id") in targets
            or control.get("aria-label", "").strip()
            or (
                control.get("aria-labelledby")
                and all(part in ids for part in control["aria-labelledby"].split())
            )
        )
        if not named:
            found.append(f"<{control['tag']} name={control.get('name')!r}> has no label")
    return found


def test_every_label_names_a_control_and_every_control_has_a_label(site):
    problems = {}
    for name, page in html_pages(site, "en"):
        if found := unlabelled(page):
            problems[name] = found
    assert not problems, report(problems)


def test_the_english_pages_have_no_german_words_outside_the_glossary(site):
    vocabulary = catalogue_words()
    allowed = glossary.terms()
    problems = {}
    for name, text in texts(site, "en"):
        words = [w for w in WORD.findall(without(text, allowed)) if is_german(w, vocabulary)]
        if words:
            problems[name] = words
    assert not problems, report(problems)


# German words an English message may quote: a surname as the example of two spellings.
QUOTED_EXAMPLES = ["Schäfer"]


def test_no_english_message_has_german_words_outside_the_glossary():
    """The catalogue's msgids are the English UI, including the messages no page above shows
    (errors, confirmations, commands): the same detector, message by message."""
    vocabulary = catalogue_words()
    allowed = [*glossary.terms(), *QUOTED_EXAMPLES]
    problems = {}
    for entry in polib.pofile(str(PO_FILE)):
        text = without(f"{entry.msgid} {entry.msgid_plural}", allowed)
        if words := [w for w in WORD.findall(text) if is_german(w, vocabulary)]:
            where = ", ".join(sorted({path for path, _line in entry.occurrences}))
            problems[f"{entry.msgid[:60]!r} ({where})"] = words
    assert not problems, report(problems)


def test_the_german_pages_have_no_obvious_english_leftovers(site):
    problems = {}
    for name, text in texts(site, "de"):
        words = [w for w in WORD.findall(text) if w.lower() in ENGLISH_WORDS]
        if words:
            problems[name] = words
    assert not problems, report(problems)


def test_english_headings_and_labels_start_with_a_capital(site):
    """Django's verbose names are lower-case ("kind", "player", "total"); a heading, column
    header, label or button shows them with a capital (glossary terms like "keine 90" and the
    users' own words aside)."""
    allowed = [*glossary.terms(), *site["users"]]
    problems = {}
    for name, page in html_pages(site, "en"):
        found = [
            f"<{tag}> {text[:40]!r}"
            for tag, text in page.headings
            if text[:1].islower() and not any(text.startswith(term) for term in allowed)
        ]
        if found:
            problems[name] = found
    assert not problems, report(problems)


AMERICAN_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b[ap]\.m\.|\b(?:noon|midnight)\b")


def test_english_dates_are_day_month_year_with_a_24_hour_clock(site):
    problems = {}
    for name, text in texts(site, "en"):
        if found := AMERICAN_DATE.findall(text):
            problems[name] = found
    assert not problems, report(problems)


@pytest.mark.parametrize(
    ("language", "date", "moment"),
    [("en", "5 Dec 2026", "23 Nov 2026, 15:19"), ("de", "05.12.2026", "23.11.2026 15:19")],
)
def test_dates_and_times_in_each_language(language, date, moment):
    when = datetime.datetime(2026, 11, 23, 15, 19)
    with translation.override(language):
        assert formats.date_format(datetime.date(2026, 12, 5), "SHORT_DATE_FORMAT") == date
        assert formats.date_format(when, "SHORT_DATETIME_FORMAT") == moment
        assert formats.time_format(when, "TIME_FORMAT") == "15:19"


def test_the_detector_catches_the_words_of_the_issue():
    vocabulary = catalogue_words()
    text = without(
        "Spielwert-Rechner · Penalty Spielliste · geringfügig · Sonderpunkte Re · "
        "stille Hochzeit · vorgeführtes Pflichtsolo · Re · Kontra · keine 90",
        glossary.terms(),
    )
    flagged = {w for w in WORD.findall(text) if is_german(w, vocabulary)}
    assert flagged == {"Spielwert", "Rechner", "Spielliste", "geringfügig", "Sonderpunkte"}


def test_the_reader_finds_duplicate_ids_and_unlabelled_controls():
    page = read(
        '<p id="a"></p><p id="a"></p><label for="x">X</label><input name="n">'
        '<label>Y <input name="y"></label><input name="z" aria-label="Z">'
        '<input type="hidden" name="h"><select id="s"></select><label for="s">S</label>',
        "en",
    )
    assert page.ids.count("a") == 2
    assert unlabelled(page) == ["label for='x' names no element", "<input name='n'> has no label"]
    assert page.headings == [("label", "X"), ("label", "Y"), ("label", "S")]


def test_the_reader_skips_scripts_and_text_in_another_language():
    page = read(
        '<html lang="en"><th><a href="/">kind</a></th><script>var Spiel = 1;</script>'
        '<button lang="de">Deutsch</button><input type="submit" value="Save" title="Keep it">',
        "en",
    )
    assert page.texts == ["kind", "Keep it", "Save"]
    assert page.headings == [("th", "kind")]


def test_a_plain_forms_lower_case_label_shows_with_a_capital():
    from django import forms

    class Facts(forms.Form):
        eyes = forms.IntegerField(label="card points of the Re party")

    with translation.override("en"):
        assert Facts()["eyes"].label == "Card points of the Re party"
        assert ">Card points of the Re party:</label>" in Facts()["eyes"].label_tag()
