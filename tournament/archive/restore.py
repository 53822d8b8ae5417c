"""A document (docs/archive-format.md) written back as a tournament: a new one, or the
contents of an existing one replaced (the results service's replica of a hall's tournament).

One transaction; the rows are written in bulk (a 150-table field over 10 rounds holds some
30,000 games) without history records, like a fixture: the copy's history is the original's,
which stays on the laptop it was made on. Anything the document gets wrong (a missing key, a
value of the wrong type, a reference to nothing) ends as an :class:`ArchiveError`, with
nothing written.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DataError, IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..base.versions import mark_changed, mark_series_changed
from ..models import (
    ApartGroup,
    DrawLog,
    Entry,
    Game,
    Penalty,
    Player,
    Prize,
    PrizeCategory,
    RefereeCall,
    Registration,
    Round,
    RoundResult,
    Seat,
    SeatMail,
    Series,
    Sheet,
    Table,
    Team,
    Tournament,
    names,
)
from ..models.locks import lock_tournament
from ..models.round import new_table_token
from ..models.tournament import FIRST_BIRTH_YEAR, LAST_BIRTH_YEAR, MAX_FIXED_TABLE, SLUG_MAX, Sex
from ..permissions import directed_series, managed_tournaments
from .build import (
    DRAW_LOG_FIELDS,
    ENTRY_ATTRIBUTES,
    PENALTY_DETAILS,
    PRIVATE_MOMENTS,
    PRIVATE_SETTINGS,
    PRIZE_CATEGORY_FIELDS,
    PUBLIC_SETTINGS,
    REGISTRATION_ATTRIBUTES,
    REGISTRATION_FIELDS,
    SERIES_SETTINGS,
)
from .packing import ArchiveConflict, ArchiveError, check_shape
from .public import public_part
from .rows import insert

FindPlayer = Callable[[dict], Player | None]

# The name of a player a public copy does not name (no consent): the pages show the
# pseudonym of the start number, a director's page of the copy this.
ANONYMOUS = "N. N."
# Who signed the penalties of a copy whose referees have no account here.
ARCHIVE_USER = "kreuzdame-archive"
BATCH = 500

BROKEN = _("The tournament file is incomplete or damaged.")


def integer(value: Any, *, null: bool = False) -> int | None:
    """An integer of the document (a text or a truth value is none)."""
    if value is None and null:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArchiveError(BROKEN)
    return value


def when(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def unique_slug(model: type[models.Model], wanted: str, keep: int | None = None) -> str:
    """``wanted`` (cut to its column), or with -2, -3 … when another row has it."""
    base = wanted[:SLUG_MAX]
    taken = set(
        model._default_manager.filter(slug__startswith=base[: SLUG_MAX - 4])
        .exclude(pk=keep)
        .values_list("slug", flat=True)
    )
    slug, number = base, 1
    while slug in taken:
        number += 1
        suffix = f"-{number}"
        slug = base[: SLUG_MAX - len(suffix)] + suffix
    return slug


class _Users:
    """Who did what in a full document (who entered a penalty, signed it, changed a fee):
    user names of another site, never matched to the accounts here (an "admin" there is not
    the "admin" here, and a made-up file must not make a penalty look entered by someone of
    this site). A name the document gives becomes the inactive account
    ``kreuzdame-archive``; no name stays none."""

    def __init__(self) -> None:
        self._archive: Any = None

    def get(self, name: str | None) -> Any:
        return self.signer(name) if name else None

    def signer(self, name: str | None) -> Any:
        """The account of a signature the database requires (a signed or revoked penalty)."""
        if self._archive is None:
            user_model = get_user_model()
            field = user_model.USERNAME_FIELD
            user, created = user_model._default_manager.get_or_create(
                **{field: ARCHIVE_USER}, defaults={"is_active": False}
            )
            if created:
                user.set_unusable_password()
                user.save()
            self._archive = user
        return self._archive


def known_by_uid_alone(player: dict) -> bool:
    """Whether a document's player is one without publication consent: its uid and nothing
    of the person (the public profile, docs/archive-format.md)."""
    return not any(key in player for key in ("first_name", "last_name", "club", "ddv_number"))


NAME_FIELDS = ["first_name", "last_name", "club", "ddv_number", "unverified", "name_key"]


def _person(p: dict, uid: str, by_ddv: dict[str, int]) -> Player:
    """A new player as the document's player dict ``p`` names them (a DDV number another
    player here holds stays with that player)."""
    first, last = str(p["first_name"]), str(p["last_name"])
    ddv = str(p.get("ddv_number") or "")
    return Player(
        uid=uid,
        first_name=first,
        last_name=last,
        club=str(p["club"]),
        ddv_number="" if ddv in by_ddv else ddv,
        unverified=bool(p.get("unverified", False)),
        name_key=names.name_key(first, last),
    )


def _nameless(player: Player) -> bool:
    return (player.first_name, player.last_name, player.ddv_number) == ("", ANONYMOUS, "")


def _name(player: Player, given: Player) -> None:
    for field in NAME_FIELDS:
        setattr(player, field, getattr(given, field))


def _players(
    doc: dict, find_player: FindPlayer | None, old_anonymous: dict[int, int]
) -> tuple[dict[int, int], dict[int, int]]:
    """Player ids by the document's player ref (a player known by uid alone is found by it, or
    made nameless, never renamed), and by start number for the entries the document names
    nobody for (an older public copy without consent)."""
    rows = doc["players"]
    uids = [str(uuid.UUID(p["uid"])) for p in rows]
    by_uid = {str(p.uid): p for p in Player.objects.filter(uid__in=uids)}
    ddv = [p["ddv_number"] for p in rows if p.get("ddv_number")]
    by_ddv = dict(Player.objects.filter(ddv_number__in=ddv).values_list("ddv_number", "pk"))
    found: dict[int, int] = {}
    new: dict[int, Player] = {}
    named: list[Player] = []
    for p, uid in zip(rows, uids, strict=True):
        ref = p["ref"]
        if not isinstance(ref, int) or ref in found or ref in new:
            raise ArchiveError(BROKEN)
        chosen = find_player(p) if find_player is not None else None
        if chosen is not None:
            found[ref] = chosen.pk
        elif uid in by_uid:
            player = by_uid[uid]
            found[ref] = player.pk
            if _nameless(player) and not known_by_uid_alone(p):
                # Known by uid alone so far (no consent): a publication of theirs names them.
                _name(player, _person(p, uid, by_ddv))
                named.append(player)
        elif p.get("ddv_number") and p["ddv_number"] in by_ddv:
            found[ref] = by_ddv[p["ddv_number"]]
        elif known_by_uid_alone(p):
            # A player without publication consent, known by uid alone: nameless here until
            # a publication of theirs names them (the pages show the start number's pseudonym).
            new[ref] = Player(
                uid=uid, first_name="", last_name=ANONYMOUS, name_key=names.name_key("", ANONYMOUS)
            )
        else:
            new[ref] = _person(p, uid, by_ddv)
    Player.objects.bulk_update(named, NAME_FIELDS, batch_size=BATCH)
    unnamed = [e["start_number"] for e in doc["entries"] if e["player"] is None]
    anonymous = {n: old_anonymous[n] for n in unnamed if n in old_anonymous}
    fresh = {
        n: Player(first_name="", last_name=ANONYMOUS, name_key=names.name_key("", ANONYMOUS))
        for n in unnamed
        if n not in anonymous
    }
    Player.objects.bulk_create([*new.values(), *fresh.values()], batch_size=BATCH)
    found |= {ref: player.pk for ref, player in new.items()}
    anonymous |= {n: player.pk for n, player in fresh.items()}
    return found, anonymous


def _anonymous_of(tournament: Tournament) -> dict[int, int]:
    """The unnamed players of a copy's entries, by start number: the next copy keeps them."""
    rows = Entry.objects.filter(
        tournament=tournament,
        player__first_name="",
        player__last_name=ANONYMOUS,
        player__ddv_number="",
    ).values_list("start_number", "player_id")
    return dict(rows)


def _clear(tournament: Tournament) -> None:
    """Delete the contents of ``tournament`` (not the row): plain DELETEs, no history of the
    copy's rows, no signal per row (the versions are bumped once at the end)."""
    rounds = Round.objects.filter(tournament=tournament)
    tables = Table.objects.filter(round__in=rounds)
    for queryset in (
        RoundResult.objects.filter(round__in=rounds),
        SeatMail.objects.filter(round__in=rounds),
        DrawLog.objects.filter(round__in=rounds),
        RefereeCall.objects.filter(table__in=tables),
        Penalty.objects.filter(tournament=tournament),
        Game.objects.filter(table__in=tables),
        Seat.objects.filter(round__in=rounds),
        Sheet.objects.filter(table__in=tables),
        tables,
        rounds,
        Registration.objects.filter(tournament=tournament),
        Prize.objects.filter(category__tournament=tournament),
        PrizeCategory.objects.filter(tournament=tournament),
        Entry.objects.filter(tournament=tournament),
        ApartGroup.objects.filter(tournament=tournament),
        Team.objects.filter(tournament=tournament),
    ):
        queryset._raw_delete(queryset.db)


def _header(tournament: Tournament, given: dict) -> list[str]:
    """Set the tournament's settings the document carries; their names."""
    changed = ["date"]
    for key in (*PUBLIC_SETTINGS, *PRIVATE_SETTINGS):
        if key in given and key != "slug":
            setattr(tournament, key, given[key])
            changed.append(key)
    for key in PRIVATE_MOMENTS:
        if key in given:
            setattr(tournament, key, when(given[key]))
            changed.append(key)
    if "entry_fee" in given:
        tournament.entry_fee = Decimal(given["entry_fee"])
        changed.append("entry_fee")
    tournament.date = date.fromisoformat(given["date"])
    for key in ("name", "venue", "registration_consent"):
        if not isinstance(getattr(tournament, key), str):
            raise ArchiveError(BROKEN)
    if not isinstance(tournament.custom_overrides, dict):
        raise ArchiveError(BROKEN)
    return changed


def _entries(
    doc: dict, tournament: Tournament, players: dict[int, int], anonymous: dict[int, int], users
) -> dict[int, int]:
    """Teams and entries; the entry ids by start number."""
    teams = {t["ref"]: Team(tournament=tournament, name=str(t["name"])) for t in doc["teams"]}
    Team.objects.bulk_create(teams.values(), batch_size=BATCH)
    public = doc["profile"] == "public"
    entries = []
    for e in doc["entries"]:
        number = e["start_number"]
        player = players[e["player"]] if e["player"] is not None else anonymous[number]
        entry = Entry(
            tournament=tournament,
            player_id=player,
            start_number=number,
            team=teams[e["team"]] if e["team"] is not None else None,
            status=e["status"],
            publish=bool(e["publish"]),
        )
        if public:
            entry.token = None  # no personal page: nobody holds its link
        else:
            entry.checked_in = bool(e["checked_in"])
            entry.checked_in_at = when(e["checked_in_at"])
            entry.confirm_code = e["confirm_code"]
            entry.token = e["token"]
            entry.fee = e["fee"]
            entry.fee_changed_by = users.get(e["fee_changed_by"])
            entry.fee_changed_at = when(e["fee_changed_at"])
            _attributes(entry, e)
            entry.fixed_table = _fixed_table(e.get("fixed_table"))
        entries.append(entry)
    tables = [entry.fixed_table for entry in entries if entry.fixed_table is not None]
    if len(tables) != len(set(tables)):  # two players at one table in every round
        raise ArchiveError(BROKEN)
    Entry.objects.bulk_create(entries, batch_size=BATCH)
    return {entry.start_number: entry.pk for entry in entries}


def _attributes(entry: Entry, e: dict) -> None:
    """What the prize categories ask of an entry (optional keys, full profile only)."""
    for key in ENTRY_ATTRIBUTES:
        if key in e:
            setattr(entry, key, e[key])
    year = entry.birth_year
    if year is not None and (
        not isinstance(year, int) or not FIRST_BIRTH_YEAR <= year <= LAST_BIRTH_YEAR
    ):
        raise ArchiveError(BROKEN)
    if entry.sex not in ("", *Sex.values):
        raise ArchiveError(BROKEN)
    if not isinstance(entry.guest, bool) or not isinstance(entry.newcomer, bool):
        raise ArchiveError(BROKEN)


def _fixed_table(value: Any) -> int | None:
    """A seat wish's table number (optional key, full profile only), as the verb takes it."""
    number = integer(value, null=True)
    if number is not None and not 1 <= number <= MAX_FIXED_TABLE:
        raise ArchiveError(BROKEN)
    return number


def _apart_groups(doc: dict, tournament: Tournament, entries: dict[int, int]) -> None:
    """The never-together groups (issue 39; optional, full profile only): at least two
    different players each and an entry in one group at most, as the verb keeps them."""
    groups, members = [], []
    seen: set[int] = set()
    for g in doc.get("apart_groups", []):
        numbers = g["members"]
        if not isinstance(numbers, list) or len(numbers) < 2:
            raise ArchiveError(BROKEN)
        for number in numbers:
            if integer(number) in seen:  # twice in this group or in another one
                raise ArchiveError(BROKEN)
            seen.add(number)
        group = ApartGroup(tournament=tournament, note=_text(g["note"]))
        group.full_clean(exclude=["tournament"])
        groups.append(group)
        members.append([entries[n] for n in numbers])
    ApartGroup.objects.bulk_create(groups)
    for group, ids in zip(groups, members, strict=True):
        Entry.objects.filter(pk__in=ids).update(apart_group=group)


def _prizes(doc: dict, tournament: Tournament) -> None:
    """The prize categories and their prizes (optional, full profile only), each checked
    as a form would check it; in bulk, without a history of the copy's rows."""
    given = doc.get("prize_categories", [])
    categories = []
    for c in given:
        category = PrizeCategory(tournament=tournament, **{k: c[k] for k in PRIZE_CATEGORY_FIELDS})
        category.full_clean(exclude=["tournament"])
        categories.append(category)
    PrizeCategory.objects.bulk_create(categories)
    prizes = []
    for c, category in zip(given, categories, strict=True):
        for p in c["prizes"]:
            prize = Prize(
                category=category,
                place=p["place"],
                kind=p["kind"],
                value=Decimal(p["value"]),
                goods=p["goods"],
            )
            prize.full_clean(exclude=["category"])
            prizes.append(prize)
    Prize.objects.bulk_create(prizes)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ArchiveError(BROKEN)
    return value


def _sheet(table: Table, s: dict) -> dict[str, Any]:
    sheet = {
        "table_id": table.pk,
        "status": _text(s["status"]),
        "extra_minutes": integer(s["extra_minutes"]),
        "time_limit_from": integer(s["time_limit_from"], null=True),
        "struck_games": integer(s["struck_games"]),
    }
    if "submitted_at" in s:
        sheet |= {
            "submitted_at": when(s["submitted_at"]),
            "submitted_by": _text(s["submitted_by"]),
            "submitted_start_number": integer(s["submitted_start_number"], null=True),
            "confirmed_at": when(s["confirmed_at"]),
            "confirmed_by": _text(s["confirmed_by"]),
            "changed_after_confirmation": bool(s["changed_after_confirmation"]),
            "extra_reason": _text(s["extra_reason"]),
        }
    return sheet


def _cells(values: list) -> dict[str, int | None]:
    if not isinstance(values, list) or len(values) not in (4, 5):
        raise ArchiveError(BROKEN)
    padded = [*values, None][:5]
    cells = {f"p{position}": integer(padded[position - 1]) for position in range(1, 5)}
    return cells | {"p5": integer(padded[4], null=True)}


def _penalty(p: dict, table: Table, tournament: Tournament, entries, users, signed) -> Penalty:
    penalty = Penalty(
        table=table,
        tournament=tournament,
        number=p["number"],
        game_number=p["game_number"],
        offender_id=entries[p["offender"]],
        offender_position=p["offender_position"],
        **_cells(p["points"]),
    )
    if "category" not in p:  # public: a penalty that counts, its points and nothing else
        penalty.category = "geringfuegig"
        penalty.referee = users.signer(None)
        penalty.signed_at = signed
        return penalty
    for key in PENALTY_DETAILS:
        setattr(penalty, key, p[key])
    penalty.entered_by = users.get(p["entered_by"])
    penalty.signed_at = when(p["signed_at"])
    penalty.revoked_at = when(p["revoked_at"])
    if penalty.signed_at is not None:
        penalty.referee = users.signer(p["referee"])
    if penalty.revoked_at is not None:
        penalty.revoked_by = users.signer(p["revoked_by"])
    return penalty


def _rounds(doc: dict, tournament: Tournament, entries: dict[int, int], users) -> None:
    made = when(doc["created_at"]) or timezone.now()
    rounds = [
        Round(
            tournament=tournament,
            number=r["number"],
            status=r["status"],
            draw_seed=r.get("draw_seed"),
            started_at=when(r["started_at"]),
            closed_at=when(r["closed_at"]),
        )
        for r in doc["rounds"]
    ]
    Round.objects.bulk_create(rounds, batch_size=BATCH)
    pairs = []  # (the document's table, its Table)
    for r, round_ in zip(doc["rounds"], rounds, strict=True):
        for t in r["tables"]:
            token = t.get("token") or new_table_token()
            pairs.append((t, Table(round=round_, number=t["number"], size=t["size"], token=token)))
    Table.objects.bulk_create([table for _t, table in pairs], batch_size=BATCH)
    insert(Sheet, [_sheet(table, t["sheet"]) for t, table in pairs])
    seats: list[dict] = []
    games: list[dict] = []
    penalties, calls, replaced = [], [], {}
    for t, table in pairs:
        for position, start_number in t["seats"]:
            seats.append(
                {
                    "round_id": table.round_id,
                    "table_id": table.pk,
                    "entry_id": entries[start_number],
                    "position": integer(position),
                }
            )
        for g in t["games"]:
            if g["facts"] is not None and not isinstance(g["facts"], dict):
                raise ArchiveError(BROKEN)
            games.append(
                {
                    "table_id": table.pk,
                    "number": integer(g["number"]),
                    "kind": _text(g["kind"]),
                    "soloist_position": integer(g["soloist"], null=True),
                    "facts": g["facts"],
                    **_cells(g["points"]),
                }
            )
        signed = table.round.started_at or made
        for p in t["penalties"]:
            penalties.append(_penalty(p, table, tournament, entries, users, signed))
            if p.get("replaces") is not None:
                replaced[p["number"]] = p["replaces"]
        for c in t.get("referee_calls", []):
            calls.append(
                {
                    "table_id": table.pk,
                    "game_number": integer(c["game_number"], null=True),
                    "note": _text(c["note"]),
                    "created_at": when(c["created_at"]) or made,
                    "handled_at": when(c["handled_at"]),
                    "handled_by_id": getattr(users.get(c["handled_by"]), "pk", None),
                }
            )
    insert(Seat, seats)
    insert(Game, games)
    Penalty.objects.bulk_create(penalties, batch_size=BATCH)
    insert(RefereeCall, calls)
    if replaced:
        by_number = {p.number: p for p in penalties}
        for number, old in replaced.items():
            by_number[number].replaces = by_number[old]
        Penalty.objects.bulk_update([by_number[n] for n in replaced], ["replaces"])
    columns = ("points", "penalties", "games", "pflichtsoli", "pflichtsoli_missing")
    results: list[dict[str, Any]] = [
        {"round_id": round_.pk, "entry_id": entries[x["entry"]]}
        | {column: integer(x[column]) for column in columns}
        for r, round_ in zip(doc["rounds"], rounds, strict=True)
        for x in r["results"]
    ]
    insert(RoundResult, results)
    logs: list[dict[str, Any]] = []
    mails: list[dict[str, Any]] = []
    for r, round_ in zip(doc["rounds"], rounds, strict=True):
        for log in r.get("draw_logs", []):
            logs.append(
                {key: log[key] for key in DRAW_LOG_FIELDS}
                | {
                    "round_id": round_.pk,
                    "user_id": getattr(users.get(log["user"]), "pk", None),
                    "at": when(log["at"]),
                    "plan": _plan(log["plan"], entries),
                    "wish_cost": _wish_cost(log.get("wish_cost")),
                }
            )
        for mail in r.get("seat_mails", []):
            mails.append(
                {
                    "round_id": round_.pk,
                    "entry_id": entries[mail["entry"]],
                    "table_number": integer(mail["table_number"]),
                    "position": integer(mail["position"]),
                    "sent_at": when(mail["sent_at"]),
                }
            )
    insert(DrawLog, logs)
    insert(SeatMail, mails)


# What a draw's seat wishes cost (domain.draw.wish_cost; the round page reads every key).
# The club conflicts are none in a tournament that keeps no clubs apart.
WISH_COST_COUNTS = ("groups", "players", "fixed", "teams", "repeats", "lower_bound", "spread")
WISH_COST_WITHOUT = ("repeats", "spread")


def _counts(cost: Any, keys: tuple[str, ...]) -> dict:
    if not isinstance(cost, dict) or not {*keys, "clubs"} <= cost.keys():
        raise ArchiveError(BROKEN)
    found = {}
    for key in keys:
        value = integer(cost[key])
        if value is None or value < 0:
            raise ArchiveError(BROKEN)
        found[key] = value
    clubs = integer(cost["clubs"], null=True)
    if clubs is not None and clubs < 0:
        raise ArchiveError(BROKEN)
    return {**found, "clubs": clubs}


def _wish_cost(cost: Any) -> dict | None:
    """What a draw's seat wishes cost (optional: older files lack it): none, or an object
    with every count the round page shows (whole numbers, none negative; the club conflicts
    may be none), and the same counts without the wishes or none; other keys are dropped."""
    if cost is None:
        return None
    found = _counts(cost, WISH_COST_COUNTS)
    if "without" not in cost:
        raise ArchiveError(BROKEN)
    without = cost["without"]
    return {
        **found,
        "without": None if without is None else _counts(without, WISH_COST_WITHOUT),
    }


def _plan(plan: Any, entries: dict[int, int]) -> list | None:
    """A draw's plan with the entry ids here for its start numbers."""
    if plan is None:
        return None
    return [[[entries[number] for number in table] for table in round_] for round_ in plan]


def _registration_attributes(r: dict) -> dict:
    """The year of birth and sex a registration gave (optional keys, full profile only),
    checked as the entry's are."""
    found = {"birth_year": None, "sex": ""} | {k: r[k] for k in REGISTRATION_ATTRIBUTES if k in r}
    year = found["birth_year"]
    if year is not None and (
        not isinstance(year, int)
        or isinstance(year, bool)
        or not FIRST_BIRTH_YEAR <= year <= LAST_BIRTH_YEAR
    ):
        raise ArchiveError(BROKEN)
    if found["sex"] not in ("", *Sex.values):
        raise ArchiveError(BROKEN)
    return found


def _registrations(doc: dict, tournament: Tournament, entries: dict[int, int]) -> None:
    rows = []
    for r in doc.get("registrations", []):
        rows.append(
            {key: r[key] for key in REGISTRATION_FIELDS}
            | _registration_attributes(r)
            | {
                "tournament_id": tournament.pk,
                "position": integer(r["position"]),
                "entry_id": entries[r["entry"]] if r["entry"] is not None else None,
                "created_at": when(r["created_at"]),
                "personal_data_deleted_at": when(r["personal_data_deleted_at"]),
            }
        )
    insert(Registration, rows)


def _series(doc: dict, tournament: Tournament, importer: Any) -> None:
    """The document's series here. A series with the same uid is joined only when
    ``importer`` directs it (``None``: an administrator's import from the command line, which
    may join any); otherwise (or when there is none) the series is made here, with a new uid
    if the document's is taken, ``importer`` as its director and, of the other tournaments
    the document lists for it, those ``importer`` manages (docs/archive-format.md)."""
    joinable = Series.objects.all() if importer is None else directed_series(importer)
    members = Tournament.objects.all() if importer is None else managed_tournaments(importer)
    changed = []
    for s in doc["series"]:
        uid = str(uuid.UUID(s["uid"]))
        series = joinable.filter(uid=uid).first()
        if series is None:
            taken = Series.objects.filter(uid=uid).exists()
            series = Series(
                uid=uuid.uuid4() if taken else uid,
                **{k: s[k] for k in SERIES_SETTINGS if k != "slug"},
            )
            series.slug = unique_slug(Series, s["slug"])
            validate_slug(series.slug)
            series.save()
            series.tournaments.add(*members.filter(uid__in=[str(u) for u in s["tournaments"]]))
            if importer is not None:
                series.directors.add(importer)
        series.tournaments.add(tournament)
        changed.append(series)
    mark_series_changed(changed)


def _restore(
    doc: dict,
    target: Tournament | None,
    find_player: FindPlayer | None,
    slug: str | None,
    with_series: bool,
    importer: Any = None,
) -> Tournament:
    given = doc["tournament"]
    uid = str(uuid.UUID(given["uid"]))
    users = _Users()
    if target is None:
        if Tournament.objects.filter(uid=uid).exists():
            raise ArchiveConflict(
                _("This tournament is here already (“%(name)s”): it was not imported again.")
                % {"name": Tournament.objects.get(uid=uid).name}
            )
        wanted = slug or given["slug"]
        try:
            validate_slug(wanted)
        except ValidationError:
            message = _("The short name “%(slug)s” is not valid.") % {"slug": wanted}
            raise ArchiveError(message) from None
        tournament = Tournament(uid=uid, slug=unique_slug(Tournament, wanted))
        old_anonymous: dict[int, int] = {}
    else:
        locked = lock_tournament(target.pk)
        if locked is None:
            raise Tournament.DoesNotExist(target.pk)
        tournament = locked
        if str(tournament.uid) != uid:
            raise ArchiveError(_("The file holds another tournament."))
        old_anonymous = _anonymous_of(tournament)
        _clear(tournament)
    changed = _header(tournament, given)
    tournament.full_clean(exclude=["slug", "uid", "projector_token"], validate_unique=False)
    if target is None:
        tournament.save()
    else:  # a replica published again and again: no history record for each copy
        fields = {name: getattr(tournament, name) for name in changed}
        Tournament.objects.filter(pk=tournament.pk).update(**fields)
    players, anonymous = _players(doc, find_player, old_anonymous)
    entries = _entries(doc, tournament, players, anonymous, users)
    _rounds(doc, tournament, entries, users)
    _registrations(doc, tournament, entries)
    if doc["profile"] == "full":
        _prizes(doc, tournament)
        _apart_groups(doc, tournament, entries)
    if with_series:
        _series(doc, tournament, importer)
    orphans = set(old_anonymous.values()) - set(anonymous.values())
    if orphans:  # a player who consented since: their placeholder goes
        Player.objects.filter(pk__in=orphans, entries__isnull=True).delete()
    # The results version is part of every series' key (base/versions.series_key): the
    # series' own version stays, so a series' pages are not made anew for each restore.
    mark_changed(tournament, results=True)
    tournament.refresh_from_db()
    return tournament


def restore(
    doc: dict,
    *,
    target: Tournament | None = None,
    find_player: FindPlayer | None = None,
    slug: str | None = None,
    with_series: bool = True,
    public_only: bool = False,
    importer: Any = None,
) -> Tournament:
    """Write ``doc`` (checked by ``unpack``) as a tournament, in one transaction.

    ``target=None``: a new tournament (its slug ``slug`` or the document's, made unique);
    refused when a tournament with the document's uid exists here. ``target``: that
    tournament's contents are replaced (it keeps its id, slug and whatever the document does
    not carry); its uid must be the document's. ``find_player(player dict)`` names the
    player of an entry, else (or when it returns None) the player with the document's uid,
    else the one with its DDV number, else a new one (nameless for a player the document
    knows by uid alone: no consent). ``with_series``: join (or make) the document's series
    here: an existing one only if ``importer`` (the importing account; ``None``: an
    administrator's import) directs it. ``public_only`` (the results service): only what the
    public profile holds is written, whatever else the document carries (archive/public.py).
    :class:`ArchiveError` with nothing written when the document is not right (an
    :class:`ArchiveConflict` when a row it would write exists already); any other database
    error (a deadlock, a lock's timeout) passes as it is, for the caller to try again."""
    check_shape(doc)
    try:
        if public_only:
            doc = public_part(doc)
        with transaction.atomic():
            return _restore(doc, target, find_player, slug, with_series, importer)
    except ArchiveError:
        raise
    except IntegrityError:
        raise ArchiveConflict(BROKEN) from None
    except (
        KeyError,
        TypeError,
        ValueError,
        IndexError,
        AttributeError,
        ValidationError,
        InvalidOperation,
        DataError,
    ):
        raise ArchiveError(BROKEN) from None
