"""How a sheet is shown on the pages: the rows with their findings, the players with their
totals, names as the narrow columns write them. Shared by the list keeper's page, the office's
desk and the referees' penalty form; rendering stays in the views."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.kinds import Kind

from ..models import Game, GameKind, SheetStatus, Table
from ..models.audit import history_reason, role_label
from ..models.sheet import KIND_LABELS
from ..queries import sheets as reads
from ..wording.findings import finding_message
from . import verbs


def findings_text(findings) -> list[tuple[str, str]]:
    """Findings as (level, message in the reader's language)."""
    return [(f.level, finding_message(f.code, f.params)) for f in findings]


def minutes(seconds: int | None) -> str:
    """A countdown as the hall clock shows it: 1:05:09 or 12:30."""
    if seconds is None:
        return ""
    hours, rest = divmod(seconds, 3600)
    mins, secs = divmod(rest, 60)
    return f"{hours}:{mins:02d}:{secs:02d}" if hours else f"{mins}:{secs:02d}"


def initials(user) -> str:
    """A referee's initials, as they sign a penalty row on the paper list."""
    if user is None:
        return ""
    parts = [user.first_name, user.last_name]
    letters = "".join(part[0] for part in parts if part)
    return letters.upper() or user.get_username()[:3]


def short_name(seat) -> str:
    """A seated player as a narrow column names them: "4 Müller, A." (start number, last
    name, initial)."""
    if seat is None:
        return ""
    player = seat.entry.player
    initial = f", {player.first_name[:1]}." if player.first_name else ""
    return f"{seat.entry.start_number} {player.last_name}{initial}"


def person_of(seats, start_number: int | None) -> str:
    """Who acted on the table's link, by name: "Anna Müller (start no. 4)"; "" if unknown."""
    seat = next((s for s in seats if s.entry.start_number == start_number), None)
    if start_number is None or seat is None:
        return ""
    return _("%(name)s (start no. %(number)s)") % {
        "name": seat.entry.player.full_name,
        "number": start_number,
    }


def _penalty_row(penalty) -> dict:
    return {
        "penalty": penalty,
        "number": penalty.game_number,
        "letter": Kind.PENALTY.value,
        "label": KIND_LABELS[Kind.PENALTY],
        "soloist": None,
        "points": penalty.points,
        "signed": initials(penalty.referee),
        "signed_by": penalty.referee.get_full_name() or penalty.referee.get_username(),
        "findings": [],
    }


def sheet_context(sheet, **extra) -> dict:
    """What the sheet partial shows: rows with their findings, players, totals, ledger."""
    table = sheet.table
    names = {s.position: s for s in sheet.seats}
    step = sheet.next_step
    rows = []
    penalties = list(sheet.penalties)
    for game in sheet.games:
        rows.append(
            {
                "game": game,
                "number": game.number,
                "letter": GameKind(game.kind).scoring.value,
                "label": GameKind(game.kind).label,
                "soloist": game.soloist_position,
                "points": game.points,
                "findings": findings_text(sheet.by_game.get(game.number, [])),
            }
        )
        while penalties and penalties[0].game_number <= game.number:
            rows.append(_penalty_row(penalties.pop(0)))
    rows += [_penalty_row(p) for p in penalties]  # given in the game being played
    game_numbers = {g.number for g in sheet.games}
    other = [f for f in sheet.findings if f.game not in game_numbers]
    totals = sheet.totals
    players = [
        {
            "position": p,
            "seat": names.get(p),
            "short": short_name(names.get(p)),
            "total": totals[p - 1],
            "owes": p in step.owing_before,
        }
        for p in range(1, table.size + 1)
    ]
    outlook = sheet.outlook
    context = {
        "sheet": sheet,
        "outlook": outlook,
        "outlook_seats": [names.get(p) for p in outlook.positions],
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "rows": rows,
        "other_findings": findings_text(other),
        "players": players,
        "step": step,
        "dealer": names.get(step.dealer),
        "vorfuehren": names.get(step.vorfuehren) if step.vorfuehren else None,
        "owing": [names.get(p) for p in step.owing_before],
        "submitted_by": (
            person_of(sheet.seats, table.sheet.submitted_start_number)
            or verbs.readable(table.sheet.submitted_by)
        ),
        "seconds_left": sheet.clock.seconds_left(),
        "time_left": minutes(sheet.clock.seconds_left()),
    }
    context.update(extra)
    return context


def board_rows(round_) -> list[dict]:
    """The board's line per table: players, state, errors, clock."""
    rows = []
    for sheet in reads.board(round_):
        table = sheet.table
        if table.sheet.status != SheetStatus.OPEN:
            state = table.sheet.get_status_display()
        elif not sheet.games:
            state = _("not started")
        else:
            state = _("in progress")
        rows.append(
            {
                "table": table,
                "sheet": sheet,
                "names": [short_name(seat) for seat in sheet.seats],
                "state": state,
                "key": table.sheet.status if sheet.games or table.sheet.status != "open" else "new",
                "errors": sheet.error_count,
                "changed_after_confirmation": table.sheet.changed_after_confirmation,
                "seconds_left": sheet.clock.seconds_left(),
                "time_left": minutes(sheet.clock.seconds_left()),
            }
        )
    return rows


def outbox_data(table, sheet) -> dict:
    """What the phone's outbox (outbox.js) needs to prepare the next game while earlier ones
    still wait to be sent: the letters for its pending rows, the names for the winner and
    soloist choices, and whether the dealer deals again after a Pflichtsolo, so it can guess
    who sits out at a 5-table. Only a hint: the server checks every game when it arrives."""
    profile = table.round.tournament.profile
    return {
        "size": table.size,
        "names": {s.position: s.entry.player.full_name for s in sheet.seats},
        "letters": {kind.value: kind.scoring.value for kind in GameKind},
        "repeats": {
            GameKind.PFLICHTSOLO.value: profile.pflichtsolo_dealer_repeats,
            GameKind.VORGEFUEHRT.value: profile.vorgefuehrt_dealer_repeats,
        },
    }


def _row_text(kind, soloist, points) -> str:
    letter = GameKind(kind).scoring.value
    solo = f" ({_('soloist')} {soloist})" if soloist else ""
    return f"{letter}{solo}: " + " / ".join(str(v) for v in points)


def conflict_context(exc: verbs.Conflict) -> dict:
    """Both versions of a row two people saved at once, for the page that shows them."""
    mine, theirs = exc.mine, exc.theirs
    return {
        "message": exc.message,
        "number": exc.number,
        "mine": _row_text(mine.kind, mine.soloist, mine.points) if mine else None,
        "theirs": (
            _row_text(theirs.kind, theirs.soloist_position, theirs.points)
            if theirs is not None
            else _("removed")
        ),
        "theirs_version": theirs.version if theirs is not None else None,
    }


def history_points(record, size: int) -> str:
    """A row of the history as the office reads it: "P (2) 6 / -2 / -2 / -2"."""
    values = [record.p1, record.p2, record.p3, record.p4, record.p5][:size]
    letter = GameKind(record.kind).scoring.value
    solo = f" ({record.soloist_position})" if record.soloist_position else ""
    return f"{letter}{solo} " + " / ".join(str(v) for v in values)


def history_entries(table: Table) -> list[dict]:
    """Every create, change and removal of the table's rows, newest first: who (in the
    reader's language), with which role, the row before and after."""
    records = (
        Game.history.filter(table_id=table.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    previous: dict[int, str] = {}
    entries = []
    for record in records:
        after = history_points(record, table.size)
        entries.append(
            {
                "record": record,
                "role": role_label(record.history_role),
                "who": verbs.readable(history_reason(record))
                or (record.history_user.get_username() if record.history_user else ""),
                "before": previous.get(record.id, ""),
                "after": "" if record.history_type == "-" else after,
            }
        )
        previous[record.id] = after
    entries.reverse()
    return entries
