"""Who may do what.

Two roles come from Django groups created by a data migration: "Turnierleitung" (directors)
and "Schiedsrichter" (referees). A director manages only the tournaments listed with them as
directors; superusers manage everything. Anonymous visitors see public pages only.
"""

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from .models import Series, Table, Tournament
from .models.audit import ADMINISTRATOR, DIRECTOR, REFEREE, role_of
from .models.tournament import TournamentQuerySet


def is_administrator(user) -> bool:
    """A superuser: manages every tournament and series."""
    return role_of(user) == ADMINISTRATOR


def is_director(user) -> bool:
    """A director's account (or an administrator's): the role :func:`role_of` decides."""
    return user.is_authenticated and role_of(user) in (ADMINISTRATOR, DIRECTOR)


def is_referee(user) -> bool:
    """A referee's account, or one that may do more (a director's, an administrator's)."""
    return user.is_authenticated and role_of(user) in (ADMINISTRATOR, DIRECTOR, REFEREE)


def managed_tournaments(user) -> TournamentQuerySet:
    """The tournaments ``user`` may change."""
    if is_administrator(user):
        return Tournament.objects.all()
    if not is_director(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(directors=user)


class ReplicaReadOnly(PermissionDenied):
    """A change to a tournament (or series) that a club publishes to the results service: it
    is a copy, replaced by the club's next publication; the 403 page says so."""

    def __init__(self, club) -> None:
        super().__init__(
            _(
                "This is a copy published by %(club)s to the results service. It is changed "
                "on the club's laptop; a change here would be lost with its next publication."
            )
            % {"club": club}
        )


def refuse_replica_change(request: HttpRequest, thing: Tournament | Series) -> None:
    """Refuse a write (any request but GET and HEAD) to a club's published copy."""
    if thing.club_id is not None and request.method not in ("GET", "HEAD"):
        raise ReplicaReadOnly(thing.club)


def get_managed_tournament(
    request: HttpRequest, slug: str, *, replica_ok: bool = False
) -> Tournament:
    """The tournament for a director page; 404 (not 403) for a tournament of someone else, so
    that its existence is not revealed. A club's published copy on the results service is
    read-only (403 with the reason) unless ``replica_ok`` (a write that changes only the
    service's own data, such as merging two players)."""
    tournament = get_object_or_404(managed_tournaments(request.user), slug=slug)
    if not replica_ok:
        refuse_replica_change(request, tournament)
    return tournament


def officiated_tournaments(user) -> TournamentQuerySet:
    """The tournaments where ``user`` is a director or a referee."""
    if is_administrator(user):
        return Tournament.objects.all()
    if not is_referee(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(Q(directors=user) | Q(referees=user)).distinct()


def get_officiated_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament for a page of the tournament office (directors and referees); a club's
    published copy is read-only."""
    tournament = get_object_or_404(officiated_tournaments(request.user), slug=slug)
    refuse_replica_change(request, tournament)
    return tournament


def get_office_table(request: HttpRequest, slug: str, number: int, table_number: int) -> Table:
    """The table an official opens at the office: of a tournament they direct or referee, in
    a released or closed round; 404 otherwise."""
    tournament = get_officiated_tournament(request, slug)
    round_ = get_object_or_404(tournament.rounds, number=number)
    if not round_.started:
        raise Http404
    return get_object_or_404(
        Table.objects.select_related("round__tournament", "sheet"),
        round=round_,
        number=table_number,
    )


def manages(user, tournament: Tournament) -> bool:
    return managed_tournaments(user).filter(pk=tournament.pk).exists()


def official_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Login required; then the user must be a referee or a director (else 403)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not is_referee(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return login_required(wrapper)


def director_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Login required; then the user must belong to the directors' group (else 403)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not is_director(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return login_required(wrapper)


def roles(request: HttpRequest) -> dict[str, bool]:
    """Template context: which navigation the current user gets. A request refused before
    the authentication middleware ran (a foreign Host header) has no user: it gets none."""
    user = getattr(request, "user", None)
    if user is None:
        return {"user_is_director": False, "user_is_referee": False}
    return {"user_is_director": is_director(user), "user_is_referee": is_referee(user)}


def changeable_players(user) -> QuerySet:
    """The players of the shared player database whose stored data (name, club, DDV member
    number) ``user`` may correct or merge: an administrator (superuser) any; a director those
    who play only in tournaments the director runs, since everything else about them is other
    tournaments' data. Staff status alone (access to the admin site) grants nothing here."""
    from .models import Entry, Player

    if is_administrator(user):
        return Player.objects.all()
    # The director's tournaments as a list of ids (a few): the two EXISTS below then stay
    # index lookups per player. Written as nested IN subqueries with DISTINCT, PostgreSQL
    # planned the demo's data into minutes.
    managed = list(managed_tournaments(user).values_list("pk", flat=True))
    entries = Entry.objects.filter(player=OuterRef("pk"))
    return Player.objects.filter(Exists(entries.filter(tournament_id__in=managed))).exclude(
        Exists(entries.exclude(tournament_id__in=managed))
    )


def directed_series(user) -> QuerySet[Series]:
    """The series ``user`` may change: those listing them as a director (all for a
    superuser)."""
    if is_administrator(user):
        return Series.objects.all()
    if not is_director(user):
        return Series.objects.none()
    return Series.objects.filter(directors=user)


def get_directed_series(request: HttpRequest, slug: str) -> Series:
    """A series for a director page; 404 for someone else's series; a club's published
    series is read-only."""
    series = get_object_or_404(directed_series(request.user), slug=slug)
    refuse_replica_change(request, series)
    return series
