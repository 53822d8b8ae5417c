"""Correcting an entry and cleaning up the shared player database.

An entry's name, club and DDV member number live on the Player, which every tournament of that
person shares: correcting a typo corrects the person everywhere, so only somebody who may
change that player's data (see :func:`tournament.permissions.changeable_players`) may do it.
Team and start number belong to the entry. Every change leaves a history record with who and
why.
"""

from collections import defaultdict

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from ..errors import DomainError
from ..models import (
    Entry,
    EntryStatus,
    FeeStatus,
    Player,
    PlayerOrigin,
    Registration,
    RegistrationState,
    Tournament,
)
from ..models.audit import event, stamp
from ..models.locks import lock, lock_tournaments
from ..models.names import fold
from ..models.registration import OPEN_STATES
from . import registrations
from .entries import _changeable


def possible_duplicates(user, tournament: Tournament | None = None) -> list[list[Player]]:
    """Groups of players ``user`` may merge whose names fold to the same key (see
    :func:`tournament.models.names.fold`: umlauts, accents, case). With ``tournament`` only groups
    with somebody registered there. A person decides; nothing is merged here."""
    groups: dict[str, list[Player]] = defaultdict(list)
    for player in _changeable(user).order_by("last_name", "first_name", "pk"):
        groups[fold(player.first_name, player.last_name)].append(player)
    # The suggestion keeps the player with a DDV member number, else the older row.
    found = [
        sorted(group, key=lambda p: (not p.ddv_number, p.pk))
        for group in groups.values()
        if len(group) > 1
    ]
    if tournament is not None:
        here = set(tournament.entries.values_list("player_id", flat=True))
        found = [group for group in found if any(p.pk in here for p in group)]
    return found


def merge_players(
    keep: Player, drop: Player, *, user, reason: str, mail: registrations.Mailer | None = None
) -> Player:
    """Merge ``drop`` into ``keep``: ``drop``'s entries move to ``keep`` and ``drop`` is
    deleted; ``keep`` takes over a club or DDV member number it lacks. Refused when both play
    in the same tournament, when they have two different DDV member numbers, or when ``user``
    may not change one of them. An online registration of a deleted double entry goes over to
    ``keep``'s entry, and the freed place to the waiting list (``mail`` tells them)."""
    reason = reason.strip()
    if not reason:
        raise DomainError(_("Please say why the two players are one person."))
    if keep.pk == drop.pk:
        raise DomainError(_("Choose two different players."))
    with transaction.atomic():
        ids = [keep.pk, drop.pk]
        # The lock order of every verb: tournaments (by pk), then players, then entries; an
        # entry correction running at the same time waits here instead of deadlocking.
        tournaments = Entry.objects.filter(player_id__in=ids).values("tournament_id")
        lock_tournaments(tournaments)
        players = {p.pk: p for p in lock(Player.objects.filter(pk__in=ids))}
        allowed = _changeable(user).filter(pk__in=ids).count() == 2
        if not allowed or len(players) != 2:
            raise DomainError(
                _(
                    "You may only merge players who play only in tournaments you direct; "
                    "ask an administrator."
                )
            )
        keep, drop = players[keep.pk], players[drop.pk]
        # Registered twice in one tournament (added again under another spelling): the
        # second entry goes, if it never sat at a table and has no penalty; else it is part
        # of that tournament's results and the two stay apart.
        doubles = list(
            Entry.objects.filter(player=drop, tournament__entries__player=keep).select_related(
                "tournament"
            )
        )
        for double in doubles:
            if double.seats.exists() or double.penalties.exists():
                raise DomainError(
                    _(
                        "%(keep)s and %(drop)s both played in “%(tournament)s”; one person "
                        "cannot have two results there, so they cannot be merged."
                    )
                    % {
                        "keep": keep.full_name,
                        "drop": drop.full_name,
                        "tournament": double.tournament.name,
                    }
                )
        for double in doubles:
            _kept_takes_over(double, keep, user, reason)
            stamp(double, user, event("removed-registered-twice", id=keep.pk, reason=reason))
            double.delete()
        if keep.ddv_number and drop.ddv_number and keep.ddv_number != drop.ddv_number:
            raise DomainError(
                _(
                    "The two players have different DDV member numbers (%(keep)s, %(drop)s): "
                    "correct one of them first if they really are one person."
                )
                % {"keep": keep.ddv_number, "drop": drop.ddv_number}
            )
        note = event("merged-with-player", id=drop.pk, name=drop.full_name, reason=reason)
        for entry in lock(Entry.objects.filter(player=drop)):
            entry.player = keep
            stamp(entry, user, note)
            entry.save(update_fields=["player"])
        # On the results service: the clubs' uids of ``drop`` now name ``keep``, so that the
        # next publication of their tournaments keeps the merge (tournament/service/players.py).
        PlayerOrigin.objects.filter(player=drop).update(player=keep)
        number = keep.ddv_number or drop.ddv_number
        merged = event("merged-into-player", id=keep.pk, name=keep.full_name, reason=reason)
        stamp(drop, user, merged)
        try:
            with transaction.atomic():
                drop.delete()
        except (ProtectedError, IntegrityError):
            # Registered for another tournament in the very moment of the merge.
            raise DomainError(
                _("%(name)s was registered for a tournament meanwhile: please merge again.")
                % {"name": drop.full_name}
            ) from None
        keep.club = keep.club or drop.club
        keep.first_name = keep.first_name or drop.first_name
        keep.ddv_number = number
        keep.unverified = keep.unverified and drop.unverified  # a director said who it is
        stamp(keep, user, note)
        keep.save()
        # A deleted double held a place: the waiting list moves up (tournaments are locked).
        for tournament in {double.tournament for double in doubles}:
            registrations.fill_places(tournament, user=user, mail=mail)
    return keep


def _kept_takes_over(double: Entry, keep: Player, user, reason: str) -> None:
    """Before ``double`` (an entry of the dropped player in a tournament where ``keep`` has an
    entry too) is deleted, the kept entry takes over what the double holds: its place if
    the double is active and the kept entry only withdrawn, its check-in, a fee ticked on it,
    its seat wishes where the kept entry has none, and its online registration, so the
    personal link keeps showing the place. If the kept entry has a live registration of its
    own, the double's is cancelled (one person, one registration); so it is when the kept
    entry is disqualified."""
    kept = lock(Entry.objects).get(tournament_id=double.tournament_id, player=keep)
    merged = event("merged-with-entry", id=double.player_id, reason=reason)
    fields = []
    if double.status == EntryStatus.ACTIVE and kept.status == EntryStatus.WITHDRAWN:
        kept.status = EntryStatus.ACTIVE
        fields.append("status")
    if kept.status == EntryStatus.ACTIVE and double.checked_in and not kept.checked_in:
        kept.checked_in, kept.checked_in_at = True, double.checked_in_at
        fields += ["checked_in", "checked_in_at"]
    if kept.fee == FeeStatus.OPEN and double.fee != FeeStatus.OPEN:
        kept.fee, kept.fee_changed_by, kept.fee_changed_at = (
            double.fee,
            double.fee_changed_by,
            double.fee_changed_at,
        )
        fields += ["fee", "fee_changed_by", "fee_changed_at"]
    # The seat wishes (issue 39): the double's never-together group and fixed table, where
    # the kept entry has none (the double's table is free once it is deleted).
    if kept.apart_group_id is None and double.apart_group_id is not None:
        kept.apart_group_id = double.apart_group_id
        fields.append("apart_group")
    if kept.fixed_table is None and double.fixed_table is not None:
        kept.fixed_table = double.fixed_table
        fields.append("fixed_table")
    if fields:
        stamp(kept, user, merged).save(update_fields=fields)
    registration = lock(Registration.objects.filter(entry=double)).first()
    if registration is None:
        return
    mine = lock(Registration.objects.filter(entry=kept))
    if kept.status == EntryStatus.DISQUALIFIED or mine.filter(state__in=OPEN_STATES).exists():
        registration.entry = None
        if registration.state in OPEN_STATES:
            registration.state = RegistrationState.CANCELLED
        note = "cancelled-registered-twice"
    else:
        for old in mine:  # a cancelled registration of earlier lets go of the entry
            old.entry = None
            stamp(old, user, merged).save(update_fields=["entry"])
        registration.entry = kept
        note = "now-entry-of-player"
    stamp(registration, user, event(note, id=keep.pk, reason=reason)).save()
