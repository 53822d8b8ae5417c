"""The referees' own writes: a table calls a referee, a referee marks the call handled, a
director adds or removes the tournament's referee accounts. Each in its transaction, each
leaving a history record that names the actor and the role (the referee calls' own history,
the tournament's history of its referee list)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import DomainError
from ..models import RefereeCall, Round, Table, Tournament
from ..models.audit import LIST_KEEPER, REFEREE, REFEREE_GROUP, event, group_names, role_of, stamp
from ..models.locks import lock
from .actor import Actor


def call_referee(table: Table, actor: Actor, note: str = "") -> RefereeCall:
    """The table asks for a referee about the game it is playing (the one after the games
    entered). One open call per table is enough: while one is open, a second call returns
    it instead of queueing another."""
    with transaction.atomic():
        lock(Table.objects.filter(pk=table.pk)).first()
        waiting = table.referee_calls.filter(handled_at__isnull=True).first()
        if waiting is not None:
            return waiting
        call = RefereeCall(table=table, game_number=table.games.count() + 1, note=note)
        stamp(call, actor.user, actor.label, role="" if actor.privileged else LIST_KEEPER)
        call.save()
        return call


def handle_call(call: RefereeCall, user) -> RefereeCall:
    """A referee has dealt with a table's call."""
    with transaction.atomic():
        call = lock(RefereeCall.objects.select_related("table")).get(pk=call.pk)
        if call.handled_at is not None:
            raise DomainError(_("Somebody has already taken care of this call."))
        call.handled_at, call.handled_by = timezone.now(), user
        stamp(call, user, event("call-handled"))
        call.save(update_fields=["handled_at", "handled_by"])
        return call


def close_calls(round_: Round, user) -> None:
    """The round is over: calls nobody took care of are closed with it, each with its
    history record (called while closing the round, inside its transaction)."""
    now = timezone.now()
    for call in lock(RefereeCall.objects.filter(table__round=round_, handled_at__isnull=True)):
        call.handled_at, call.handled_by = now, user
        stamp(call, user, event("call-closed-with-round"))
        call.save(update_fields=["handled_at", "handled_by"])


@dataclass(frozen=True)
class NewAccount:
    """A referee account to create: the name and the first password."""

    username: str
    password: str
    first_name: str = ""
    last_name: str = ""


def may_become_referee(account: User) -> bool:
    """Whether a director may add this existing account as a referee: a referee account and
    nothing more — active, in the referees' group and no other, neither staff (the admin
    site) nor superuser. A director may not hand a directors' or an administrator's account
    a role, nor put their name on a tournament's referee list; an account that is some other
    director's referee may referee here too, as referees travel between tournaments. For
    anybody else the director creates a new account (the form's second path)."""
    if not account.is_active or account.is_staff or role_of(account) != REFEREE:
        return False
    return group_names(account) == {REFEREE_GROUP}


def refused_account_message() -> str:
    return _(
        "This account cannot be added as a referee: only referee accounts can, not directors' "
        "or administrators' accounts. Choose another user name to create a new referee "
        "account."
    )


def add_referee(tournament: Tournament, referee: NewAccount | User, user) -> User:
    """Make ``referee`` (an existing account, or a :class:`NewAccount` to create) a referee of
    the tournament; ``user`` is the director doing it. Returns the account. An existing
    account must pass :func:`may_become_referee` (else :class:`DomainError`)."""
    with transaction.atomic():
        if not isinstance(referee, NewAccount) and not may_become_referee(referee):
            raise DomainError(refused_account_message())
        if isinstance(referee, NewAccount):
            referee = get_user_model().objects.create_user(
                username=referee.username,
                password=referee.password,
                first_name=referee.first_name,
                last_name=referee.last_name,
            )
        referee.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])
        stamp(tournament, user, event("referee-added", name=referee.get_username()))
        tournament.referees.add(referee)
    return referee


def remove_referee(tournament: Tournament, referee, user) -> None:
    """``referee`` no longer officiates this tournament (the account stays: it may referee
    others, and its signatures stay on the penalties)."""
    with transaction.atomic():
        if not tournament.referees.filter(pk=referee.pk).exists():
            raise DomainError(_("This account is not a referee of the tournament."))
        stamp(tournament, user, event("referee-removed", name=referee.get_username()))
        tournament.referees.remove(referee)
