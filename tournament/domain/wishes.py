"""Seat wishes (issue 39, README "Sitzwünsche"): players who never share a table (a couple, a
parent and child: :class:`~tournament.models.ApartGroup`) and a player who always sits at one
table (``Entry.fixed_table``: a wheelchair place by the door). The director's verbs; the draw
reads the wishes (``domain/draw.py``) and refuses a draw they cannot all hold in. What the
players page shows of them is read in :mod:`tournament.queries.wishes`.

An entry is in one group at most (the draw's check of the groups stays exact that way) and no
two entries share a fixed table. Every change is in the history of the group and of each
entry it touches, with who made it."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..errors import DomainError
from ..models import ApartGroup, Entry, EntryStatus, Tournament
from ..models.audit import Reason, event, stamp
from ..models.locks import lock, lock_tournament
from ..models.tournament import MAX_FIXED_TABLE as MAX_TABLE


class Keep(Enum):
    """``edit_entry(..., fixed_table=KEEP)``: the fixed table stays as it is."""

    KEEP = "keep"


KEEP = Keep.KEEP


def who(entry: Entry) -> str:
    """An entry as the messages name it: "Anna Schäfer (12)"."""
    return f"{entry.player.full_name} ({entry.start_number})"


def _numbers(entries: Iterable[Entry]) -> str:
    return ", ".join(str(entry.start_number) for entry in entries)


def add_apart_group(
    tournament: Tournament, start_numbers: Iterable[int], note: str, user
) -> ApartGroup:
    """Make the players with ``start_numbers`` a never-together group of ``tournament``: the
    draw never seats two of them at one table in a new round. Refused with a message naming
    them when fewer than two different players are given, a start number belongs to nobody,
    or a player is in a group already (remove that group first). A group larger than the
    tables of the field is taken (the field may still grow): the players page warns, and the
    draw refuses until it fits (``queries.wishes``)."""
    numbers = list(dict.fromkeys(start_numbers))
    if len(numbers) < 2:
        raise DomainError(_("Never at one table needs at least two different start numbers."))
    note = note.strip()
    with transaction.atomic():
        lock_tournament(tournament.pk)
        wanted = tournament.entries.filter(start_number__in=numbers)
        rows = lock(wanted, of=("self",)).select_related("player")
        found = {entry.start_number: entry for entry in rows}
        missing = [str(number) for number in numbers if number not in found]
        if missing:
            raise DomainError(
                ngettext(
                    "Nobody has start number %(numbers)s.",
                    "Nobody has the start numbers %(numbers)s.",
                    len(missing),
                )
                % {"numbers": ", ".join(missing)}
            )
        members = [found[number] for number in numbers]
        grouped = [entry for entry in members if entry.apart_group_id is not None]
        if grouped:
            raise DomainError(
                ngettext(
                    "%(players)s is in a never-together group already: a player is in one "
                    "group at most. Remove that group first and enter it again with everybody.",
                    "%(players)s are in never-together groups already: a player is in one "
                    "group at most. Remove those groups first and enter them again with "
                    "everybody.",
                    len(grouped),
                )
                % {"players": ", ".join(who(entry) for entry in grouped)}
            )
        group = ApartGroup(tournament=tournament, note=note)
        stamp(group, user, event("never-together-added", numbers=_numbers(members))).save()
        for entry in members:
            entry.apart_group = group
            stamp(entry, user, event("never-together-added", numbers=_numbers(members)))
            entry.save(update_fields=["apart_group"])
    return group


def remove_apart_group(group: ApartGroup, user) -> None:
    """Delete a never-together group: its players may share a table again from the next draw
    (rounds drawn already stay as they are). Refused when the group is gone already."""
    with transaction.atomic():
        lock_tournament(group.tournament_id)
        found = ApartGroup.objects.filter(pk=group.pk).first()
        if found is None:
            raise DomainError(_("This never-together group was removed already."))
        members = list(lock(Entry.objects.filter(apart_group=found)).order_by("start_number"))
        said = event("never-together-removed", numbers=_numbers(members))
        for entry in members:
            entry.apart_group = None
            stamp(entry, user, said)
            entry.save(update_fields=["apart_group"])
        stamp(found, user, said).delete()


def check_fixed_table(entry: Entry, number: int | None) -> None:
    """Refuse a table number out of range, and a table that is another active entry's fixed
    table already (two players cannot both sit at table N in every round). Inside the caller's
    transaction, under the tournament's lock."""
    if number is None:
        return
    if not 1 <= number <= MAX_TABLE:
        raise DomainError(
            _("A fixed table is a table number from 1 to %(max)s.") % {"max": MAX_TABLE}
        )
    holder = (
        # Only an active entry holds its table: the draw leaves a withdrawn player out, so
        # their wish protects nothing (it holds again if they come back and the table is free).
        Entry.objects.filter(
            tournament_id=entry.tournament_id, fixed_table=number, status=EntryStatus.ACTIVE
        )
        .exclude(pk=entry.pk)
        .select_related("player")
        .first()
    )
    if holder is not None:
        raise DomainError(
            _(
                "Table %(table)s is the fixed table of %(player)s already: two players fixed "
                "to one table would meet in every round."
            )
            % {"table": number, "player": who(holder)}
        )


def _fixed_table_event(number: int | None):
    return (
        event("fixed-table-cleared") if number is None else event("fixed-table-set", table=number)
    )


def set_fixed_table(entry: Entry, number: int | None, user, reason: Reason = "") -> Entry:
    """Seat ``entry``'s player at table ``number`` in every new round (None: no fixed table
    any more). Refused with a message when another entry of the tournament has that table
    (see :func:`check_fixed_table`); nothing is written when nothing changes."""
    with transaction.atomic():
        lock_tournament(entry.tournament_id)
        entry = lock(Entry.objects, of=("self",)).select_related("player").get(pk=entry.pk)
        if entry.fixed_table == number:
            return entry
        check_fixed_table(entry, number)
        entry.fixed_table = number
        stamp(entry, user, reason or _fixed_table_event(number))
        entry.save(update_fields=["fixed_table"])
    return entry
