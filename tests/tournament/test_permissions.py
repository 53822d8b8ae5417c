"""Every director page, for every role: anonymous, referee, a director of another
tournament, and the tournament's own director."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.urls import get_resolver, reverse

from tests.factories import (
    EntryFactory,
    RoundFactory,
    TableFactory,
    UserFactory,
    director,
    referee,
)
from tournament.models import (
    Penalty,
    Prize,
    PrizeCategory,
    RefereeCall,
    Registration,
    RegistrationState,
    Series,
    TableDevice,
)
from tournament.models.audit import DIRECTOR_ACCOUNTS, role_of
from tournament.permissions import is_director, is_referee, roles
from tournament.urls import manage_patterns

pytestmark = pytest.mark.django_db


def prize_of(tournament):
    """A prize of ``tournament`` (place 1 of a category "Gesamt"), made once."""
    category, _ = PrizeCategory.objects.get_or_create(tournament=tournament, name="Gesamt")
    prize, _ = Prize.objects.get_or_create(category=category, place=1)
    return prize


# (url name, kwargs builder, method, status for the tournament's own director)
def series_of(tournament):
    """A public series of ``tournament``, directed by the tournament's directors."""
    series, created = Series.objects.get_or_create(
        slug=f"{tournament.slug}-serie",
        defaults={"name": f"Serie {tournament.name}", "is_public": True},
    )
    if created:
        series.tournaments.add(tournament)
        series.directors.add(*tournament.directors.all())
    return series


def registration_of(tournament):
    """An online registration of ``tournament`` with its personal link: the first one, else a
    new one on the waiting list."""
    found = tournament.registrations.filter(token__isnull=False).order_by("position").first()
    if found is not None:
        return found
    highest = tournament.registrations.order_by("-position").first()
    return Registration.objects.create(
        tournament=tournament,
        first_name="Wanda",
        last_name="Warteliste",
        email="wanda@example.org",
        state=RegistrationState.WAITING,
        position=(highest.position if highest else 0) + 1,
    )


def pending_device(tournament) -> int:
    """A pairing code of the tournament not used yet (for revoking)."""
    return TableDevice.objects.get_or_create(tournament=tournament, table_number=1)[0].pk


DIRECTOR_PAGES = {
    "tournament-list": (lambda t, e: {}, "get", 200),
    "tournament-create": (lambda t, e: {}, "get", 200),
    "tournament-import": (lambda t, e: {}, "get", 200),
    "tournament-export": (lambda t, e: {"slug": t.slug}, "get", 200),
    "entry-list": (lambda t, e: {"slug": t.slug}, "get", 200),
    "tournament-edit": (lambda t, e: {"slug": t.slug}, "get", 200),
    "entry-add": (lambda t, e: {"slug": t.slug}, "post", 400),
    "entry-checkin": (lambda t, e: {"slug": t.slug, "pk": e.pk}, "post", 302),
    "entry-status": (lambda t, e: {"slug": t.slug, "pk": e.pk, "action": "withdraw"}, "post", 302),
    "entry-edit": (lambda t, e: {"slug": t.slug, "pk": e.pk}, "get", 200),
    # Seat wishes (issue 39): the card alone; removing a group that is not there (a message).
    "seat-wishes": (lambda t, e: {"slug": t.slug}, "get", 200),
    "seat-wish-remove": (lambda t, e: {"slug": t.slug, "pk": 0}, "post", 302),
    "entry-checkin-number": (lambda t, e: {"slug": t.slug}, "post", 302),
    "entry-checkin-all": (lambda t, e: {"slug": t.slug}, "post", 302),
    # Fees: a tap without a choice is refused; the treasurer's workbook; check-in by link.
    "entry-fee": (lambda t, e: {"slug": t.slug, "pk": e.pk}, "post", 400),
    "entry-fees-export": (lambda t, e: {"slug": t.slug}, "get", 200),
    "player-data": (lambda t, e: {"slug": t.slug, "pk": e.pk}, "get", 200),
    "checkin-link-toggle": (lambda t, e: {"slug": t.slug}, "post", 302),
    # Online registrations: the page, an action (moving the only one up changes nothing) and
    # deleting personal data (refused with a message: the tournament is not finished).
    "registration-list": (lambda t, e: {"slug": t.slug}, "get", 200),
    "registration-action": (
        lambda t, e: {"slug": t.slug, "pk": registration_of(t).pk, "action": "up"},
        "post",
        302,
    ),
    "registration-forget": (lambda t, e: {"slug": t.slug}, "post", 302),
    "player-merge": (lambda t, e: {"slug": t.slug}, "get", 200),
    "player-cards": (lambda t, e: {"slug": t.slug}, "get", 200),
    "import": (lambda t, e: {"slug": t.slug}, "get", 200),
    "import-confirm": (lambda t, e: {"slug": t.slug}, "post", 302),
    "round-list": (lambda t, e: {"slug": t.slug}, "get", 200),
    "standings": (lambda t, e: {"slug": t.slug}, "get", 200),
    "standings-reveal": (lambda t, e: {"slug": t.slug}, "post", 302),
    "statistics": (lambda t, e: {"slug": t.slug}, "get", 200),
    "statistics-day": (lambda t, e: {"slug": t.slug}, "get", 200),
    "statistics-player": (lambda t, e: {"slug": t.slug, "number": e.start_number}, "get", 200),
    "standings-export": (
        lambda t, e: {"slug": t.slug, "what": "standings", "fmt": "xlsx"},
        "get",
        200,
    ),
    # The CSV file: the Excel file's header row is the same English column keys in every
    # language (a fixed format, README), which tests/test_page_hygiene.py, reading every
    # workbook listed here, would count as English words on a German page.
    "results-export": (lambda t, e: {"slug": t.slug, "fmt": "csv"}, "get", 200),
    "round-draw": (lambda t, e: {"slug": t.slug}, "post", 302),
    "round-detail": (lambda t, e: {"slug": t.slug, "number": 1}, "get", 200),
    "round-swap": (lambda t, e: {"slug": t.slug, "number": 1}, "post", 302),
    "round-release": (lambda t, e: {"slug": t.slug, "number": 1}, "post", 302),
    "round-close": (lambda t, e: {"slug": t.slug, "number": 1}, "post", 302),
    "board": (lambda t, e: {"slug": t.slug, "number": 1}, "get", 200),
    "print-pack": (lambda t, e: {"slug": t.slug, "number": 1}, "get", 200),
    "sheet-desk": (lambda t, e: {"slug": t.slug, "number": 1, "table_number": 1}, "get", 200),
    "sheet-import": (lambda t, e: {"slug": t.slug, "number": 1, "table_number": 1}, "post", 422),
    "sheet-history": (lambda t, e: {"slug": t.slug, "number": 1, "table_number": 1}, "get", 200),
    "sheet-action": (
        lambda t, e: {"slug": t.slug, "number": 1, "table_number": 1, "action": "confirm"},
        "post",
        302,
    ),
    "referee-home": (lambda t, e: {}, "get", 302),  # straight to the only tournament
    "series-list": (lambda t, e: {}, "get", 200),
    "series-create": (lambda t, e: {}, "get", 200),
    "series-detail": (lambda t, e: {"slug": series_of(t).slug}, "get", 200),
    "series-edit": (lambda t, e: {"slug": series_of(t).slug}, "get", 200),
    "series-delete": (lambda t, e: {"slug": series_of(t).slug}, "post", 302),
    "series-download": (lambda t, e: {"slug": series_of(t).slug, "fmt": "xlsx"}, "get", 200),
    "series-statistics": (lambda t, e: {"slug": series_of(t).slug}, "get", 200),
    # A player without a game in a closed round of the series has no figures there: 404.
    "series-player-statistics": (
        lambda t, e: {"slug": series_of(t).slug, "player": e.player_id},
        "get",
        404,
    ),
    "referee": (lambda t, e: {"slug": t.slug}, "get", 200),
    "referees": (lambda t, e: {"slug": t.slug}, "get", 200),
    "call-done": (lambda t, e: {"slug": t.slug, "pk": RefereeCall.objects.get().pk}, "post", 302),
    "penalty-add": (
        lambda t, e: {"slug": t.slug, "number": 1, "table_number": 1},
        "get",
        200,
    ),
    "projector": (lambda t, e: {"slug": t.slug}, "get", 200),
    "projector-renew": (lambda t, e: {"slug": t.slug}, "post", 302),
    "ceremony": (lambda t, e: {"slug": t.slug}, "get", 200),
    "results-service": (lambda t, e: {}, "get", 200),
    "publish-now": (lambda t, e: {"slug": t.slug}, "post", 302),
    "device-list": (lambda t, e: {"slug": t.slug}, "get", 200),
    "device-revoke": (lambda t, e: {"slug": t.slug, "pk": pending_device(t)}, "post", 302),
    "penalty-list": (lambda t, e: {"slug": t.slug}, "get", 200),
    "penalty-export": (lambda t, e: {"slug": t.slug}, "get", 200),
    "penalty-detail": (lambda t, e: {"slug": t.slug, "pk": Penalty.objects.get().pk}, "get", 200),
    "penalty-action": (
        lambda t, e: {"slug": t.slug, "pk": Penalty.objects.get().pk, "action": "sign"},
        "post",
        302,
    ),
    # Issue 38: the payout sheet, the certificates and the site's certificate design.
    "payout-export": (lambda t, e: {"slug": t.slug, "fmt": "xlsx"}, "get", 200),
    "certificates": (lambda t, e: {"slug": t.slug}, "get", 200),
    "certificates-all": (lambda t, e: {"slug": t.slug}, "get", 200),
    "certificate-design": (lambda t, e: {}, "get", 200),
    # The prize page: a form sent empty is refused (400) and changes nothing.
    "prizes": (lambda t, e: {"slug": t.slug}, "get", 200),
    "prize-preset": (lambda t, e: {"slug": t.slug}, "post", 400),
    "prize-category-add": (lambda t, e: {"slug": t.slug}, "post", 400),
    "prize-category-edit": (
        lambda t, e: {"slug": t.slug, "pk": prize_of(t).category_id},
        "post",
        400,
    ),
    "prize-category-move": (
        lambda t, e: {"slug": t.slug, "pk": prize_of(t).category_id, "direction": "up"},
        "post",
        302,
    ),
    "prize-category-delete": (
        lambda t, e: {"slug": t.slug, "pk": prize_of(t).category_id},
        "post",
        302,
    ),
    "prize-add": (lambda t, e: {"slug": t.slug, "pk": prize_of(t).category_id}, "post", 400),
    "prize-edit": (lambda t, e: {"slug": t.slug, "pk": prize_of(t).pk}, "post", 400),
    "prize-delete": (lambda t, e: {"slug": t.slug, "pk": prize_of(t).pk}, "post", 302),
}
TOURNAMENT_INDEPENDENT = {
    "tournament-list",
    "tournament-create",
    "tournament-import",
    "referee-home",
    "series-list",
    "series-create",
    "results-service",
    "certificate-design",
}
# The tournament office: its referees work here too (a referee of another tournament gets
# 404 like a director of another tournament); what they may not do answers 403.
OFFICE_PAGES = {
    "board": 200,
    "sheet-desk": 200,
    "sheet-import": 422,
    "sheet-history": 200,
    "sheet-action": 403,  # confirming is the director's
    "tournament-list": 302,  # the start page after login sends a referee to the desk
    "referee-home": 302,
    "referee": 200,
    "call-done": 302,
    "penalty-add": 200,
    "penalty-list": 200,
    "penalty-export": 200,
    "penalty-detail": 200,
    "penalty-action": 302,
}
# A referee's own start page: every referee has one (it lists only their tournaments).
OWN_PAGES = {"referee-home": 200, "tournament-list": 302}


def test_every_director_route_is_listed_here():
    names = {p.name for p in manage_patterns[0]}
    assert names == set(DIRECTOR_PAGES)


@pytest.fixture(autouse=True)
def first_round(tournament):
    round_ = RoundFactory(tournament=tournament, number=1, status="released")
    table = TableFactory(round=round_, number=1)
    RefereeCall.objects.create(table=table, note="Frage")
    Penalty.objects.create(
        table=table,
        game_number=1,
        offender=EntryFactory(tournament=tournament),
        category="verwarnung",
    )
    return round_


def request(client, name, tournament, entry):
    kwargs_for, method, _ = DIRECTOR_PAGES[name]
    url = reverse(f"manage:{name}", kwargs=kwargs_for(tournament, entry))
    return getattr(client, method)(url)


@pytest.mark.parametrize("name", sorted(DIRECTOR_PAGES))
def test_anonymous_visitors_are_sent_to_the_login(client, tournament, name):
    entry = EntryFactory(tournament=tournament)
    response = request(client, name, tournament, entry)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    entry.refresh_from_db()
    assert entry.status == "active"


@pytest.mark.parametrize("name", sorted(DIRECTOR_PAGES))
def test_referees_of_another_tournament_get_403_or_404(client, tournament, name):
    entry = EntryFactory(tournament=tournament)
    client.force_login(referee())
    expected = OWN_PAGES.get(name, 404 if name in OFFICE_PAGES else 403)
    assert request(client, name, tournament, entry).status_code == expected
    assert not Penalty.objects.filter(signed_at__isnull=False).exists()
    assert RefereeCall.objects.filter(handled_at__isnull=True).exists()


@pytest.mark.parametrize("name", sorted(DIRECTOR_PAGES))
def test_the_tournaments_referees_work_in_the_office_only(client, tournament, name):
    entry = EntryFactory(tournament=tournament)
    official = referee()
    tournament.referees.add(official)
    client.force_login(official)
    expected = OFFICE_PAGES.get(name, 403)
    assert request(client, name, tournament, entry).status_code == expected


@pytest.mark.parametrize("name", sorted(set(DIRECTOR_PAGES) - TOURNAMENT_INDEPENDENT))
def test_a_director_of_another_tournament_gets_404(client, tournament, name):
    entry = EntryFactory(tournament=tournament)
    client.force_login(director())
    assert request(client, name, tournament, entry).status_code == 404
    entry.refresh_from_db()
    assert entry.status == "active"


@pytest.mark.parametrize("name", sorted(DIRECTOR_PAGES))
def test_the_tournaments_director_may(director_client, tournament, name):
    entry = EntryFactory(tournament=tournament)
    expected = DIRECTOR_PAGES[name][2]
    assert request(director_client, name, tournament, entry).status_code == expected


def test_get_never_changes_an_entry(director_client, tournament):
    entry = EntryFactory(tournament=tournament)
    url = reverse("manage:entry-status", args=[tournament.slug, entry.pk, "withdraw"])
    assert director_client.get(url).status_code == 405
    url = reverse("manage:entry-checkin", args=[tournament.slug, entry.pk])
    assert director_client.get(url).status_code == 405
    entry.refresh_from_db()
    assert entry.status == "active" and not entry.checked_in


def test_post_without_csrf_token_is_refused(tournament, director_user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(director_user)
    entry = EntryFactory(tournament=tournament)
    url = reverse("manage:entry-status", args=[tournament.slug, entry.pk, "withdraw"])
    assert client.post(url).status_code == 403
    entry.refresh_from_db()
    assert entry.status == "active"


def test_private_tournaments_are_hidden_from_the_public(client, tournament):
    assert client.get(reverse("tournament-public", args=[tournament.slug])).status_code == 404
    tournament.is_public = True
    tournament.save()
    assert client.get(reverse("tournament-public", args=[tournament.slug])).status_code == 200


def test_public_routes_need_no_login(client):
    public = {"home", "login", "logout", "tournament-public", "calculator", "where-do-i-sit"}
    names = {name for name in get_resolver().reverse_dict if isinstance(name, str)}
    assert public <= names
    assert client.get(reverse("home")).status_code == 200
    assert client.get(reverse("login")).status_code == 200
    assert client.get(reverse("calculator")).status_code == 200


@pytest.mark.parametrize(
    ("account", "role", "directs", "referees"),
    [
        ("anonymous", "user", False, False),
        ("plain", "user", False, False),
        ("staff", "user", False, False),  # the admin site alone grants no role
        ("referee", "referee", False, True),
        ("director", "director", True, True),
        ("superuser", "administrator", True, True),
    ],
)
def test_one_decision_gives_the_role_the_history_records_and_what_the_account_may(
    client, account, role, directs, referees
):
    """The history's role, the pages' checks, the navigation and the directors the series
    form offers come from one decision (``role_of``)."""
    users = {
        "plain": lambda: UserFactory(username="jemand"),
        "staff": lambda: UserFactory(username="technik", is_staff=True),
        "referee": lambda: referee(username="pfeife"),
        "director": lambda: director(username="chefin"),
        "superuser": lambda: UserFactory(username="root", is_superuser=True),
    }
    user = users[account]() if account in users else AnonymousUser()
    assert role_of(user) == role
    assert (is_director(user), is_referee(user)) == (directs, referees)
    request = RequestFactory().get("/")
    request.user = user
    assert roles(request) == {"user_is_director": directs, "user_is_referee": referees}
    if user.is_authenticated:
        offered = get_user_model().objects.filter(DIRECTOR_ACCOUNTS, pk=user.pk).exists()
        assert offered == directs
        client.force_login(user)
    start = client.get(reverse("manage:tournament-list"))
    expected = 200 if directs else 302 if referees or not user.is_authenticated else 403
    assert start.status_code == expected
