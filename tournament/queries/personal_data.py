"""Everything the site holds about one person, for their right of access (GDPR Art. 15).

A read: the shared player row and its history, and from the tournaments the asking
director may see (``tournaments``) every entry, online registration, seat, round result and
penalty of that person, each with its history lines. Secrets are left out (the personal
link, the confirmation code): they are keys, not data about the person, and a file that is
handed on must not open anything. The prize categories' attributes of an entry (year of
birth, sex, guest, newcomer) and of a registration are among the row's own fields; year of
birth and sex are in no history line (not recorded there). Mails are not recorded by the
site (README, "Datenschutz / privacy"): only the address and the language they were sent in.
"""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal

from django.db.models import Model, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Entry, Penalty, Player, Registration, RoundResult, Seat, Tournament
from ..models.audit import history_reason

# Keys, not personal data: never in the file.
SECRETS = {"token", "confirm_code", "client_id", "projector_token"}
# What every history line says besides the row's values.
HISTORY_META = ("history_date", "history_type", "history_change_reason")
CHANGE = {"+": "created", "~": "changed", "-": "deleted"}


def _plain(value):
    if isinstance(value, datetime.datetime):
        return timezone.localtime(value).isoformat() if timezone.is_aware(value) else str(value)
    if isinstance(value, datetime.date | Decimal | uuid.UUID):  # a uid as text
        return str(value)
    return value


def _fields(instance: Model, skip: tuple[str, ...] = ()) -> dict:
    """The row's own fields as plain values (a relation as its id), secrets left out."""
    return {
        field.attname: _plain(getattr(instance, field.attname))
        for field in instance._meta.concrete_fields
        if field.name not in SECRETS and field.name not in skip
    }


def _history(instance: Model, who: bool = True) -> list[dict]:
    """The history lines of the row: when, what, who (account name and role) and why unless
    not ``who``, and the values after the change."""
    records = getattr(instance, "history", None)
    if records is None:
        return []
    lines = []
    for record in records.select_related("history_user").order_by("history_date", "pk"):
        user = record.history_user
        values = {
            field.attname: _plain(getattr(record, field.attname))
            for field in instance._meta.concrete_fields
            if field.name not in SECRETS and hasattr(record, field.attname)
        }
        lines.append(
            {
                "at": _plain(record.history_date),
                "change": CHANGE.get(record.history_type, record.history_type),
                "by": user.get_username() if user and who else None,
                "role": (getattr(record, "history_role", "") or None) if who else None,
                "reason": (history_reason(record) or None) if who else None,
                "values": values,
            }
        )
    return lines


def _with_history(instance: Model, skip: tuple[str, ...] = (), who: bool = True) -> dict:
    return {**_fields(instance, skip), "history": _history(instance, who)}


def _wishes(entry: Entry) -> dict:
    """The seat wishes of the entry (issue 39): its fixed table, and its never-together group
    with the group's note and the others' start numbers (not their names: theirs)."""
    group = entry.apart_group
    together = None
    if group is not None:
        others = group.members.exclude(pk=entry.pk).order_by("start_number")
        together = {
            "note": group.note,
            "with_start_numbers": list(others.values_list("start_number", flat=True)),
        }
    return {"fixed_table": entry.fixed_table, "never_at_one_table": together}


def _entry(entry: Entry) -> dict:
    tournament = entry.tournament
    seats = Seat.objects.filter(entry=entry).select_related("round", "table")
    results = {result.round_id: result for result in RoundResult.objects.filter(entry=entry)}
    rounds = []
    for seat in seats.order_by("round__number"):
        result = results.get(seat.round_id)
        rounds.append(
            {
                "round": seat.round.number,
                "round_status": seat.round.status,
                "table": seat.table.number,
                "position": seat.position,
                "points": result.points if result else None,
                "penalty_points": result.penalties if result else None,
                "games": result.games if result else None,
            }
        )
    penalties = Penalty.objects.filter(offender=entry).order_by("number")
    registrations = Registration.objects.filter(entry=entry).order_by("pk")
    return {
        "tournament": {
            "name": tournament.name,
            "date": _plain(tournament.date),
            "venue": tournament.venue,
            "public": tournament.is_public,
        },
        "entry": _with_history(entry),
        "team": entry.team.name if entry.team else None,
        "seat_wishes": _wishes(entry),
        "rounds": rounds,
        "penalties": [_with_history(penalty) for penalty in penalties],
        "online_registrations": [_with_history(r) for r in registrations],
    }


def personal_data(
    player: Player, tournaments: QuerySet[Tournament], *, own_player: bool = True
) -> dict:
    """Everything held about ``player`` in the shared player database and in
    ``tournaments`` (those of the asking director), as plain JSON-ready values. Not
    ``own_player`` (the player plays other directors' tournaments too): the shared row's
    history without who changed it and why, as the entry's page shows it (it may be
    another director's note)."""
    entries = (
        Entry.objects.filter(player=player, tournament__in=tournaments)
        .select_related("tournament", "team", "apart_group")
        .order_by("tournament__date", "tournament__pk")
    )
    linked = Registration.objects.filter(entry__in=entries)
    # Registrations that never got a place (waiting list, declined, cancelled before a
    # place) are held about the person too: found by the e-mail addresses of the person's
    # own registrations, never by the name (a namesake's data is not theirs to see).
    addresses = Q()
    for address in {a.strip().casefold() for a in linked.values_list("email", flat=True) if a}:
        addresses |= Q(email__iexact=address)
    unplaced = (
        Registration.objects.filter(addresses, tournament__in=tournaments, entry__isnull=True)
        .select_related("tournament")
        .order_by("pk")
        if addresses
        else Registration.objects.none()
    )
    return {
        "made_at": _plain(timezone.now()),
        "about": "GDPR Art. 15",
        "player": _with_history(player, skip=("name_key",), who=own_player),
        "tournaments": [_entry(entry) for entry in entries],
        "registrations_without_a_place": [
            {"tournament": r.tournament.name, **_with_history(r)} for r in unplaced
        ],
        "mails": _(
            "Mails are not recorded; the e-mail address and language of each online "
            "registration above are what they were sent to."
        ),
    }
