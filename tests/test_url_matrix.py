"""Every URL pattern of the project, for every role, against an explicit table of expected
status codes — a route missing from the table fails the test. Also: no GET changes data,
and no state-changing request passes without its CSRF token.

Roles: anonymous, a player (an account without any role), the list keeper of table A (no
account, the table's link), a referee and a director of this tournament, and a director of
another tournament. The manage pages' expectations live in tests/tournament/test_permissions.py
(DIRECTOR_PAGES, OFFICE_PAGES); this file adds the public and table-link routes and the roles
those tests do not cover.
"""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.factories import TournamentFactory, director, referee, released_table
from tests.tournament.test_permissions import (
    DIRECTOR_PAGES,
    OFFICE_PAGES,
    TOURNAMENT_INDEPENDENT,
    registration_of,
    series_of,
)
from tournament.models import (
    Club,
    Entry,
    Game,
    GameKind,
    Penalty,
    RefereeCall,
    Registration,
    Round,
    RoundStatus,
    Sheet,
    Tournament,
)

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "player", "keeper", "referee", "director", "other_director"]
EVERYBODY = dict.fromkeys(ROLES, 200)


def signup_tournament(world):
    """A public tournament with online registration on: the world's own, else another one of
    the data (the demo's upcoming tournament)."""
    if world.tournament.registration_open and world.tournament.is_public:
        return world.tournament
    others = Tournament.objects.filter(registration_open=True, is_public=True).order_by("pk")
    return others.first() or world.tournament


def personal_token(world):
    """The personal link of a registration: one of the world's tournament, else any (the
    demo's), else a new one on the world's waiting list."""
    found = world.tournament.registrations.filter(token__isnull=False).first()
    if found is None:
        found = Registration.objects.filter(token__isnull=False).order_by("pk").first()
    return (found or registration_of(world.tournament)).token


def club_of(world):
    """A club of the results service (tournament/service)."""
    return Club.objects.get_or_create(slug="testhausen", defaults={"name": "DSC Testhausen"})[0]


def published_by_club(world):
    """The world's tournament as a club's published copy: the club's address of it."""
    club = club_of(world)
    Tournament.objects.filter(pk=world.tournament.pk).update(
        club=club, published_slug="in-der-halle"
    )
    return {"club": club.slug, "slug": "in-der-halle"}


# name -> (kwargs builder(world), method, {role: status})
PUBLIC = {
    # The results service: a club's page, its address of a tournament (to the tournament's
    # page), and the publications' end point (POST only, tests/tournament/service/).
    "club": (lambda w: {"club": club_of(w).slug}, "get", EVERYBODY),
    "club-tournament": (published_by_club, "get", dict.fromkeys(ROLES, 302)),
    "publish": (lambda w: {}, "get", dict.fromkeys(ROLES, 405)),
    "home": (lambda w: {}, "get", EVERYBODY),
    "tournament-public": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    "tournament-calculator": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    "where-do-i-sit": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    "public-standings": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    "public-table-plan": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    # The projector: public for a public tournament, and by its secret link for anybody.
    "public-projector": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    "public-projector-data": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    "projector": (lambda w: {"token": w.tournament.projector_token}, "get", EVERYBODY),
    "projector-data": (lambda w: {"token": w.tournament.projector_token}, "get", EVERYBODY),
    "calculator": (lambda w: {}, "get", EVERYBODY),
    # Statistics: public for a public tournament (a player's with their consent), the numbers
    # of the day by the projector's secret link too.
    "statistics": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    "statistics-player": (
        lambda w: {"slug": w.slug, "number": w.table.seats.first().entry.start_number},
        "get",
        EVERYBODY,
    ),
    "statistics-day": (lambda w: {"slug": w.slug}, "get", EVERYBODY),
    "projector-day": (lambda w: {"token": w.tournament.projector_token}, "get", EVERYBODY),
    "series-statistics": (lambda w: {"slug": series_of(w.tournament).slug}, "get", EVERYBODY),
    # No result in a closed round: nothing counts, no page (as for series-player).
    "series-player-statistics": (
        lambda w: {
            "slug": series_of(w.tournament).slug,
            "player": w.table.seats.first().entry.player_id,
        },
        "get",
        dict.fromkeys(ROLES, 404),
    ),
    # A public series of the tournament: its table and downloads for everybody; a player
    # page only for a player with a result in a closed round (the world has none: 404).
    "series-public": (lambda w: {"slug": series_of(w.tournament).slug}, "get", EVERYBODY),
    "series-export": (
        lambda w: {"slug": series_of(w.tournament).slug, "fmt": "xlsx"},
        "get",
        EVERYBODY,
    ),
    "series-player": (
        lambda w: {
            "slug": series_of(w.tournament).slug,
            "player": w.table.seats.first().entry.player_id,
        },
        "get",
        dict.fromkeys(ROLES, 404),
    ),
    "login": (lambda w: {}, "get", EVERYBODY),
    "logout": (lambda w: {}, "post", dict.fromkeys(ROLES, 302)),
    "set_language": (lambda w: {}, "post", dict.fromkeys(ROLES, 302)),
    # The table's link is the list keeper's key: whoever holds it works on that sheet only.
    "keeper-sheet": (lambda w: {"token": w.token}, "get", EVERYBODY),
    "keeper-status": (lambda w: {"token": w.token}, "get", EVERYBODY),
    "keeper-calculator": (lambda w: {"token": w.token}, "get", EVERYBODY),
    "keeper-delete": (lambda w: {"token": w.token}, "post", dict.fromkeys(ROLES, 422)),
    "keeper-submit": (lambda w: {"token": w.token}, "post", dict.fromkeys(ROLES, 422)),
    "keeper-confirm": (lambda w: {"token": w.token}, "post", dict.fromkeys(ROLES, 422)),
    "keeper-time-up": (lambda w: {"token": w.token}, "post", dict.fromkeys(ROLES, 422)),
    "keeper-call": (lambda w: {"token": w.token}, "post", EVERYBODY),
    # A tablet's own pages: pairing (without a code: 422), its state (unpaired here), and
    # forgetting its pairing.
    "device-home": (lambda w: {}, "get", EVERYBODY),
    "device-state": (lambda w: {}, "get", EVERYBODY),
    "device-pair": (lambda w: {}, "post", dict.fromkeys(ROLES, 422)),
    "device-forget": (lambda w: {}, "post", dict.fromkeys(ROLES, 302)),
    # Online registration: the form of a public tournament with registration on (the world's
    # has begun, so the form says registration is closed); "send my link again".
    "registration-form": (lambda w: {"slug": signup_tournament(w).slug}, "get", EVERYBODY),
    "registration-resend": (lambda w: {}, "get", EVERYBODY),
    # The personal link is the key: whoever holds it sees that one registration. The world's
    # is on the waiting list: cancelling needs the tick (400), checking in a place (400).
    "registration-personal": (lambda w: {"token": personal_token(w)}, "get", EVERYBODY),
    "registration-edit": (lambda w: {"token": personal_token(w)}, "get", EVERYBODY),
    "registration-print": (lambda w: {"token": personal_token(w)}, "get", EVERYBODY),
    "registration-cancel": (
        lambda w: {"token": personal_token(w)},
        "post",
        dict.fromkeys(ROLES, 400),
    ),
    "registration-checkin": (
        lambda w: {"token": personal_token(w)},
        "post",
        dict.fromkeys(ROLES, 400),
    ),
}
ADMIN_INDEX = {
    "anonymous": 302,
    "player": 302,
    "keeper": 302,
    "referee": 302,
    "director": 302,
    "other_director": 302,
}  # fmt: skip  (nobody here is staff)


def manage_expectation(name: str) -> dict:
    """The manage pages for every role, from the tables of test_permissions.py."""
    own = DIRECTOR_PAGES[name][2]
    office = OFFICE_PAGES.get(name, 403)
    return {
        "anonymous": 302,  # to the login
        "keeper": 302,  # the table's link opens no office page
        "player": 403,
        "referee": office,
        "director": own,
        "other_director": own if name in TOURNAMENT_INDEPENDENT else 404,
    }


def route_names() -> set[str]:
    """Every named route of the project, namespaced ("manage:board"), the admin's aside."""
    names = set()

    def walk(patterns, namespace):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace or namespace
                if inner != "admin":
                    walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver().url_patterns, None)
    return names


def test_every_route_is_in_the_table():
    listed = set(PUBLIC) | {f"manage:{name}" for name in DIRECTOR_PAGES}
    assert route_names() == listed


class World:
    """One tournament with a running round: table A (the keeper's) with two games, a draft
    penalty and an open call; and another tournament with its own director."""

    def __init__(self):
        self.director = director(username="leitung")
        self.tournament = TournamentFactory(
            slug="herbst",
            is_public=True,
            directors=[self.director],
            registration_open=True,
            registration_capacity=40,
        )
        self.slug = self.tournament.slug
        self.referee = referee(username="schiri")
        self.tournament.referees.add(self.referee)
        table = released_table(self.tournament)
        self.table, self.token = table, table.token
        for number, points in ((1, (1, -1, 1, -1)), (2, (2, -2, -2, 2))):
            Game.objects.create(table=table, number=number, kind=GameKind.NORMAL,
                                p1=points[0], p2=points[1], p3=points[2], p4=points[3])  # fmt: skip
        Penalty.objects.create(table=table, game_number=1, offender=Entry.objects.first(),
                               offender_position=1, category="verwarnung")  # fmt: skip
        RefereeCall.objects.create(table=table, game_number=2, note="Frage")
        self.other_director = director(username="anderswo")
        TournamentFactory(slug="anderswo", directors=[self.other_director])
        self.player = get_user_model().objects.create_user("spieler", password="x-geheim-9")
        self.registration = registration_of(self.tournament)  # on the waiting list

    def client(self, role: str) -> Client:
        client = Client()
        user = {"player": self.player, "referee": self.referee, "director": self.director,
                "other_director": self.other_director}.get(role)  # fmt: skip
        if user is not None:
            client.force_login(user)
        return client


@pytest.fixture
def world():
    return World()


def snapshot():
    """Everything a request could change."""
    return (
        sorted(Game.objects.values_list("table_id", "number", "version", "p1", "p2", "p3", "p4")),
        sorted(Penalty.objects.values_list("pk", "signed_at", "revoked_at")),
        sorted(Entry.objects.values_list("pk", "status", "checked_in")),
        sorted(Round.objects.values_list("pk", "status")),
        sorted(Sheet.objects.values_list("pk", "status", "time_limit_from")),
        sorted(RefereeCall.objects.values_list("pk", "handled_at")),
        sorted(Registration.objects.values_list("pk", "state", "position", "email", "token")),
    )


def request(client, name, world):
    if name in PUBLIC:
        kwargs_for, method, _expected = PUBLIC[name]
        url = reverse(name, kwargs=kwargs_for(world))
    else:
        short = name.removeprefix("manage:")
        kwargs_for, method, _status = DIRECTOR_PAGES[short]
        entry = Entry.objects.filter(tournament=world.tournament).first()
        url = reverse(name, kwargs=kwargs_for(world.tournament, entry))
    return method, getattr(client, method)(url)


def expected(name, role):
    if name in PUBLIC:
        return PUBLIC[name][2][role]
    return manage_expectation(name.removeprefix("manage:"))[role]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(set(PUBLIC) | {f"manage:{n}" for n in DIRECTOR_PAGES}))
def test_every_route_for_every_role(world, name, role):
    before = snapshot()
    method, response = request(world.client(role), name, world)
    assert response.status_code == expected(name, role), response.content[:300]
    if method == "get":
        assert snapshot() == before, f"GET {name} changed data"


@pytest.mark.parametrize("role", ROLES)
def test_the_admin_is_for_staff_only(world, role):
    assert world.client(role).get(reverse("admin:index")).status_code == ADMIN_INDEX[role]


def test_an_unknown_table_link_and_another_tournaments_objects_give_404(world):
    client = world.client("anonymous")
    assert client.get(reverse("keeper-sheet", args=["x" * 32])).status_code == 404
    other = world.client("other_director")
    penalty = Penalty.objects.get()
    url = reverse("manage:penalty-detail", args=["anderswo", penalty.pk])
    assert other.get(url).status_code == 404  # the penalty is not in their tournament
    url = reverse("manage:sheet-desk", args=["anderswo", 1, 1])
    assert other.get(url).status_code == 404


@pytest.mark.parametrize(
    "name", sorted(n for n in set(PUBLIC) | {f"manage:{n}" for n in DIRECTOR_PAGES}
                   if (PUBLIC.get(n) or DIRECTOR_PAGES.get(n.removeprefix("manage:")))[1] == "post")
)  # fmt: skip
def test_no_state_change_without_the_csrf_token(world, name):
    role = "anonymous" if name in PUBLIC else "director"
    client = Client(enforce_csrf_checks=True)
    if role == "director":
        client.force_login(world.director)
    before = snapshot()
    _method, response = request(client, name, world)
    assert response.status_code == 403
    assert snapshot() == before


def test_a_round_of_another_tournament_stays_closed_to_its_referee(world):
    Round.objects.filter(tournament=world.tournament).update(status=RoundStatus.RELEASED)
    stranger = referee(username="fremd")
    TournamentFactory(slug="fremd").referees.add(stranger)
    client = Client()
    client.force_login(stranger)
    url = reverse("manage:penalty-add", args=[world.slug, 1, world.table.number])
    assert client.get(url).status_code == 404
