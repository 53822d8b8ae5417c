"""A tournament as a document (docs/archive-format.md): everything of it ("full", to move it
to another laptop) or what its public pages show and compute from ("public", what leaves the
hall for the results service).

The public profile follows the public pages' reads: the standings count the stored results
of closed rounds and the games and signed, unrevoked penalties of the tables that count
(``queries.standings.counted_tables``); the statistics read the same games with their facts;
the table plan and "Wo sitze ich?" show the seats of started rounds; names only with the
player's consent (``Entry.publish``), else the player's uid alone (one person's tournaments
stay one person on the service; never shown). Nothing else: no codes, tokens, e-mail
addresses, fees, notes, reasons, history or user names. A fixed number of queries, whatever
the size.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from django.utils import timezone

from ..models import (
    DrawLog,
    Entry,
    Game,
    Penalty,
    Prize,
    PrizeCategory,
    RefereeCall,
    Registration,
    Round,
    RoundResult,
    RoundStatus,
    Seat,
    SeatMail,
    Series,
    Sheet,
    SheetStatus,
    Table,
    Team,
    Tournament,
)
from ..models.round_status import STARTED
from ..queries.standings import shown_publicly
from .packing import FORMAT, FORMAT_VERSION, PROFILES

# The tournament's settings the public pages read; the full profile adds the rest.
PUBLIC_SETTINGS = (
    "name",
    "slug",
    "venue",
    "is_public",
    "rule_profile",
    "custom_base",
    "custom_overrides",
    "planned_rounds",
    "standings_live",
    "tiebreak",
    "projector_seconds",
    # Hidden standings (issue 38): the service's copy says from which round on.
    "hide_standings_from",
)
PRIVATE_SETTINGS = (
    "separate_clubs_rounds",
    "registration_open",
    "registration_capacity",
    "registration_approval",
    "registration_paused",
    "registration_consent",
    "checkin_open",
    "projector_token",
    # Seat wishes (issue 39): what the director arranged for people, never public.
    "teams_apart",
)
PRIVATE_MOMENTS = ("registration_opens_at", "registration_closes_at")
# A penalty's details beyond its points: the full profile only (the reasons are the referees').
PENALTY_DETAILS = (
    "category",
    "context",
    "soloist_position",
    "disadvantages_soloist",
    "absagen",
    "deduction",
    "reason",
    "revoke_reason",
    "entry_status_before",
)
DRAW_LOG_FIELDS = (
    "action",
    "seed",
    "seconds",
    "repeat_pairs",
    "note",
    "cut_by_clock",
    "plan_repeats",
    "unfair_repeats",
    "unfair_spread",
)
REGISTRATION_FIELDS = (
    "first_name",
    "last_name",
    "club",
    "ddv_number",
    "team_name",
    "email",
    "language",
    "token",
    "state",
    "position",
    "consent",
    "publish",
)
# What the prize categories ask of an entry (issue 38): personal data, the full profile only.
ENTRY_ATTRIBUTES = ("birth_year", "sex", "guest", "newcomer")
# The same asked at the online registration (carried to the entry on acceptance).
REGISTRATION_ATTRIBUTES = ("birth_year", "sex")
PRIZE_CATEGORY_FIELDS = (
    "name",
    "order",
    "measure",
    "ties",
    "sex",
    "born_from",
    "born_until",
    "guests_only",
    "newcomers_only",
    "also_for_winners",
)
SERIES_SETTINGS = (
    "slug",
    "name",
    "description",
    "is_public",
    "method",
    "best_of",
    "min_rounds",
    "window_months",
    "placement_points",
    "tiebreak",
)


def by_start_number(plan: Any, numbers: dict[int, int]) -> list | None:
    """A draw's plan (rounds of tables of entry ids) with start numbers for the ids; None if
    an entry of it is gone (a later draw then plans anew)."""
    if not isinstance(plan, list):
        return None
    try:
        return [[[numbers[pk] for pk in table] for table in round_] for round_ in plan]
    except (KeyError, TypeError):
        return None


def moment(value: datetime | None) -> str | None:
    """A moment as the document writes it: ISO 8601 in UTC."""
    return None if value is None else value.astimezone(UTC).isoformat()


def day(value: date) -> str:
    return value.isoformat()


def points(row: dict) -> list[int]:
    """A row's points (a game's or a penalty's columns), one per position (four at a
    4-table)."""
    values = [row[f"p{position}"] for position in range(1, 6)]
    return [v or 0 for v in values[:4]] + ([values[4]] if values[4] is not None else [])


class _Builder:
    def __init__(
        self,
        tournament: Tournament,
        public: bool,
        results_visible: Callable[[Round], bool] | None,
    ) -> None:
        self.tournament = tournament
        self.public = public
        self.results_visible = results_visible
        self.entry_rows: list[Entry] = []  # read by entries()

    def settings(self, hidden_rounds: bool) -> dict[str, Any]:
        t = self.tournament
        out: dict[str, Any] = {key: getattr(t, key) for key in PUBLIC_SETTINGS}
        out |= {"uid": str(t.uid), "date": day(t.date)}
        if self.public and hidden_rounds:
            # The rounds whose results wait are sent as played but unconfirmed: live
            # standings would count their seats with zero points.
            out["standings_live"] = False
        if not self.public:
            out |= {key: getattr(t, key) for key in PRIVATE_SETTINGS}
            out |= {key: moment(getattr(t, key)) for key in PRIVATE_MOMENTS}
            out["entry_fee"] = str(t.entry_fee)
        return out

    def entries(self) -> tuple[list, list, list, dict[int, int]]:
        """Teams, players and entries; the start number of each entry by its id."""
        entries = list(
            Entry.objects.filter(tournament=self.tournament)
            .select_related("player", "fee_changed_by", "apart_group")
            .order_by("start_number")
        )
        self.entry_rows = entries
        teams = list(Team.objects.filter(tournament=self.tournament).order_by("name", "pk"))
        used_teams = {e.team_id for e in entries}
        if self.public:
            teams = [team for team in teams if team.pk in used_teams]
        team_ref = {team.pk: index for index, team in enumerate(teams, start=1)}
        players: list[dict] = []
        rows: list[dict] = []
        for entry in entries:
            if entry.publish or not self.public:
                players.append(self.player(entry))
            else:
                # No consent: only the player's random uid, which links one person's
                # tournaments on the service (a series counts them once); no name, no club,
                # no number. No page shows it.
                players.append({"uid": str(entry.player.uid)})
            player_ref = len(players)
            row: dict[str, Any] = {
                "start_number": entry.start_number,
                "player": player_ref,
                "team": team_ref.get(entry.team_id) if entry.team_id else None,
                "status": entry.status,
                "publish": entry.publish,
            }
            if not self.public:
                row |= {
                    "checked_in": entry.checked_in,
                    "checked_in_at": moment(entry.checked_in_at),
                    "confirm_code": entry.confirm_code,
                    "token": entry.token,
                    "fee": entry.fee,
                    "fee_changed_by": entry.fee_changed_by.get_username()
                    if entry.fee_changed_by
                    else None,
                    "fee_changed_at": moment(entry.fee_changed_at),
                }
                row |= {key: getattr(entry, key) for key in ENTRY_ATTRIBUTES}
                row["fixed_table"] = entry.fixed_table  # a seat wish (issue 39)
            rows.append(row)
        team_rows = [{"ref": team_ref[t.pk], "name": t.name} for t in teams]
        for ref, player in enumerate(players, start=1):
            player["ref"] = ref
        numbers = {entry.pk: entry.start_number for entry in entries}
        return team_rows, players, rows, numbers

    def player(self, entry: Entry) -> dict[str, Any]:
        p = entry.player
        out: dict[str, Any] = {
            "uid": str(p.uid),
            "first_name": p.first_name,
            "last_name": p.last_name,
            "club": p.club,
            "ddv_number": p.ddv_number,
        }
        if not self.public:
            out["unverified"] = p.unverified
        return out

    def visible(self, round_: Round) -> bool:
        """Whether a started round's results go into the public profile: not while the
        director hides them (issue 38), nor while publishing holds them back."""
        if not shown_publicly(self.tournament, round_.number):
            return False
        return self.results_visible is None or bool(self.results_visible(round_))

    def counts(self, round_: Round, sheet: Sheet) -> bool:
        """Whether the table's games and penalties count (the standings' rule)."""
        if round_.status == RoundStatus.CLOSED or self.tournament.standings_live:
            return True
        return sheet.status == SheetStatus.CONFIRMED

    def rounds(self, numbers: dict[int, int]) -> tuple[list[dict], bool]:
        """The rounds with their tables; whether a round's results were held back."""
        rounds = list(Round.objects.filter(tournament=self.tournament).order_by("number"))
        if self.public:
            rounds = [r for r in rounds if r.status in STARTED]
        for r in rounds:
            r.tournament = self.tournament
        hidden = {r.pk for r in rounds if self.public and not self.visible(r)}
        round_ids = [r.pk for r in rounds]
        tables = list(
            Table.objects.filter(round_id__in=round_ids)
            .select_related("sheet")
            .order_by("round__number", "number")
        )
        by_round: dict[int, list[Table]] = defaultdict(list)
        for table in tables:
            by_round[table.round_id].append(table)
        seats: dict[int, list] = defaultdict(list)
        for table_id, position, entry_id in (
            Seat.objects.filter(round_id__in=round_ids)
            .order_by("table_id", "position")
            .values_list("table_id", "position", "entry_id")
        ):
            seats[table_id].append([position, numbers[entry_id]])
        games: dict[int, list] = defaultdict(list)
        # Plain rows, no model instances: a big field has tens of thousands of games.
        columns = ("number", "kind", "soloist_position", "facts", "p1", "p2", "p3", "p4", "p5")
        for game in (
            Game.objects.filter(table__round_id__in=round_ids)
            .order_by("table_id", "number")
            .values("table_id", *columns)
        ):
            games[game["table_id"]].append(
                {
                    "number": game["number"],
                    "kind": game["kind"],
                    "soloist": game["soloist_position"],
                    "points": points(game),
                    "facts": game["facts"],
                }
            )
        penalties = self.penalties(round_ids, numbers)
        calls = self.calls(round_ids)
        logs: dict[int, list] = {}
        mails: dict[int, list] = {}
        if not self.public:  # the draw's and the mails' own records: never public
            logs, mails = self.draw_logs(round_ids, numbers), self.seat_mails(round_ids, numbers)
        results: dict[int, list] = defaultdict(list)
        for result in RoundResult.objects.filter(round_id__in=round_ids).order_by(
            "round_id", "entry__start_number"
        ):
            results[result.round_id].append(
                {
                    "entry": numbers[result.entry_id],
                    "points": result.points,
                    "penalties": result.penalties,
                    "games": result.games,
                    "pflichtsoli": result.pflichtsoli,
                    "pflichtsoli_missing": result.pflichtsoli_missing,
                }
            )
        out = []
        for r in rounds:
            shown = r.pk not in hidden
            row: dict[str, Any] = {
                "number": r.number,
                "status": r.status if shown else RoundStatus.RELEASED,
                "started_at": moment(r.started_at),
                "closed_at": moment(r.closed_at) if shown else None,
                "results": results[r.pk] if shown else [],
            }
            if not self.public:
                row |= {
                    "draw_seed": r.draw_seed,
                    "draw_logs": logs.get(r.pk, []),
                    "seat_mails": mails.get(r.pk, []),
                }
            row["tables"] = []
            for table in by_round[r.pk]:
                counted = shown and (not self.public or self.counts(r, table.sheet))
                item: dict[str, Any] = {
                    "number": table.number,
                    "size": table.size,
                    "seats": seats[table.pk],
                    "sheet": self.sheet(table.sheet, shown),
                    "games": games[table.pk] if counted else [],
                    "penalties": penalties[table.pk] if counted else [],
                }
                if not self.public:
                    item |= {"token": table.token, "referee_calls": calls[table.pk]}
                row["tables"].append(item)
            out.append(row)
        if self.public:
            # Numbered anew 1, 2, 3: a gap would tell of a penalty that does not count.
            sent = [p for r in out for t in r["tables"] for p in t["penalties"]]
            for number, penalty in enumerate(sorted(sent, key=lambda p: p["number"]), 1):
                penalty["number"] = number
        return out, bool(hidden)

    def sheet(self, sheet: Sheet, shown: bool) -> dict[str, Any]:
        if not shown:  # results held back: a sheet being played, nothing entered
            return {
                "status": SheetStatus.OPEN,
                "extra_minutes": sheet.extra_minutes,
                "time_limit_from": None,
                "struck_games": 0,
            }
        out: dict[str, Any] = {
            "status": sheet.status,
            "extra_minutes": sheet.extra_minutes,
            "time_limit_from": sheet.time_limit_from,
            "struck_games": sheet.struck_games,
        }
        if not self.public:
            out |= {
                "submitted_at": moment(sheet.submitted_at),
                "submitted_by": sheet.submitted_by,
                "submitted_start_number": sheet.submitted_start_number,
                "confirmed_at": moment(sheet.confirmed_at),
                "confirmed_by": sheet.confirmed_by,
                "changed_after_confirmation": sheet.changed_after_confirmation,
                "extra_reason": sheet.extra_reason,
            }
        return out

    def penalties(self, round_ids: list[int], numbers: dict[int, int]) -> dict[int, list]:
        rows = Penalty.objects.filter(table__round_id__in=round_ids)
        if self.public:
            rows = rows.counting()
        users = ("entered_by__username", "referee__username", "revoked_by__username")
        replaced = "replaces__number"
        out: dict[int, list] = defaultdict(list)
        for penalty in rows.order_by("number").values(
            *[f.attname for f in Penalty._meta.concrete_fields], *users, replaced
        ):
            item: dict[str, Any] = {
                "number": penalty["number"],
                "game_number": penalty["game_number"],
                "offender": numbers[penalty["offender_id"]],
                "offender_position": penalty["offender_position"],
                "points": points(penalty),
            }
            if not self.public:
                item |= {key: penalty[key] for key in PENALTY_DETAILS}
                item |= {
                    "entered_by": penalty["entered_by__username"],
                    "referee": penalty["referee__username"],
                    "revoked_by": penalty["revoked_by__username"],
                    "signed_at": moment(penalty["signed_at"]),
                    "revoked_at": moment(penalty["revoked_at"]),
                    "replaces": penalty[replaced],
                }
            out[penalty["table_id"]].append(item)
        return out

    def calls(self, round_ids: list[int]) -> dict[int, list]:
        out: dict[int, list] = defaultdict(list)
        if self.public:
            return out
        for call in (
            RefereeCall.objects.filter(table__round_id__in=round_ids)
            .select_related("handled_by")
            .order_by("created_at", "pk")
        ):
            out[call.table_id].append(
                {
                    "game_number": call.game_number,
                    "note": call.note,
                    "created_at": moment(call.created_at),
                    "handled_at": moment(call.handled_at),
                    "handled_by": call.handled_by.get_username() if call.handled_by else None,
                }
            )
        return out

    def draw_logs(self, round_ids: list[int], numbers: dict[int, int]) -> dict[int, list]:
        """Every draw, swap and release with its seed; the plan a later draw continues, its
        entries by start number."""
        out: dict[int, list] = defaultdict(list)
        for log in (
            DrawLog.objects.filter(round_id__in=round_ids)
            .select_related("user")
            .order_by("at", "pk")
        ):
            item = {key: getattr(log, key) for key in DRAW_LOG_FIELDS}
            item |= {
                "user": log.user.get_username() if log.user else None,
                "at": moment(log.at),
                "plan": by_start_number(log.plan, numbers),
                # What the seat wishes cost (issue 39): counts and figures, no entry ids.
                "wish_cost": log.wish_cost,
            }
            out[log.round_id].append(item)
        return out

    def seat_mails(self, round_ids: list[int], numbers: dict[int, int]) -> dict[int, list]:
        """The seats the players were told by e-mail (a release mails only the changed)."""
        out: dict[int, list] = defaultdict(list)
        rows = SeatMail.objects.filter(round_id__in=round_ids).order_by(
            "round_id", "entry__start_number"
        )
        for mail in rows:
            out[mail.round_id].append(
                {
                    "entry": numbers[mail.entry_id],
                    "table_number": mail.table_number,
                    "position": mail.position,
                    "sent_at": moment(mail.sent_at),
                }
            )
        return out

    def registrations(self, numbers: dict[int, int]) -> list[dict]:
        rows = Registration.objects.filter(tournament=self.tournament).order_by("position")
        return [
            {key: getattr(r, key) for key in (*REGISTRATION_FIELDS, *REGISTRATION_ATTRIBUTES)}
            | {
                "entry": numbers.get(r.entry_id) if r.entry_id else None,
                "created_at": moment(r.created_at),
                "personal_data_deleted_at": moment(r.personal_data_deleted_at),
            }
            for r in rows
        ]

    def prizes(self) -> list[dict]:
        """The prize categories in their order, each with its prizes by place (full only):
        two queries."""
        found = list(
            PrizeCategory.objects.filter(tournament=self.tournament).order_by("order", "pk")
        )
        prizes: dict[int, list[dict]] = defaultdict(list)
        for prize in Prize.objects.filter(category__tournament=self.tournament).order_by(
            "category_id", "place"
        ):
            prizes[prize.category_id].append(
                {
                    "place": prize.place,
                    "kind": prize.kind,
                    "value": str(prize.value),
                    "goods": prize.goods,
                }
            )
        return [
            {key: getattr(category, key) for key in PRIZE_CATEGORY_FIELDS}
            | {"prizes": prizes[category.pk]}
            for category in found
        ]

    def apart_groups(self) -> list[dict]:
        """The never-together groups (issue 39, full only) in the order they were made, each
        with its members' start numbers: read with the entries (a group whose players are all
        gone is nothing to carry)."""
        groups: dict[int, dict] = {}
        for entry in self.entry_rows:
            group = entry.apart_group
            if group is not None:
                found = groups.setdefault(group.pk, {"note": group.note, "members": []})
                found["members"].append(entry.start_number)
        return [groups[pk] for pk in sorted(groups)]

    def series(self) -> list[dict]:
        found = Series.objects.filter(tournaments=self.tournament).order_by("slug")
        if self.public:
            found = found.filter(is_public=True)
        found = found.prefetch_related("tournaments")
        out = []
        for series in found:
            members = sorted(
                (t.date, t.slug, str(t.uid))
                for t in series.tournaments.all()
                if t.is_public or not self.public
            )
            item: dict[str, Any] = {key: getattr(series, key) for key in SERIES_SETTINGS}
            item |= {"uid": str(series.uid), "tournaments": [uid for _d, _s, uid in members]}
            out.append(item)
        return out


def build(
    tournament: Tournament,
    *,
    profile: str = "full",
    results_visible: Callable[[Round], bool] | None = None,
    now: datetime | None = None,
) -> dict:
    """The document of ``tournament`` in ``profile`` "full" or "public" (module docstring).
    ``results_visible``: for the public profile, whether a started round's results may be
    shown yet; a round it refuses keeps its table plan but loses its games, sheets' results,
    round results and penalties (and counts as being played). ``now``: the ``created_at``."""
    if profile not in PROFILES:
        raise ValueError(f"unknown archive profile {profile!r}")
    public = profile == "public"
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "profile": profile,
        "created_at": moment(now or timezone.now()),
    }
    empty: dict[str, list] = {
        "teams": [],
        "players": [],
        "entries": [],
        "rounds": [],
        "series": [],
    }
    if public and not tournament.is_public:
        # The service hides a replica that is no longer public: only who it is.
        header = {
            "uid": str(tournament.uid),
            "slug": tournament.slug,
            "name": tournament.name,
            "date": day(tournament.date),
            "is_public": False,
        }
        return doc | {"tournament": header} | empty
    builder = _Builder(tournament, public, results_visible)
    teams, players, entries, numbers = builder.entries()
    rounds, hidden = builder.rounds(numbers)
    return (
        doc
        | {
            "tournament": builder.settings(hidden),
            "teams": teams,
            "players": players,
            "entries": entries,
            "rounds": rounds,
            "series": builder.series(),
        }
        | (
            {}
            if public
            else {
                "registrations": builder.registrations(numbers),
                "prize_categories": builder.prizes(),
                "apart_groups": builder.apart_groups(),
            }
        )
    )
