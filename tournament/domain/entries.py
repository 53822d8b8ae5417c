"""A tournament's entries: registering, editing, withdrawing, checking in."""

from dataclasses import asdict, dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ..base.versions import mark_changed
from ..errors import DomainError
from ..models import Entry, EntryStatus, Player, Registration, Sex, Team, Tournament
from ..models.audit import PLAYER, Event, Reason, event, role_of, stamp
from ..models.locks import lock, lock_tournament
from ..models.tournament import FIRST_BIRTH_YEAR, LAST_BIRTH_YEAR
from ..permissions import changeable_players
from ..queries.players import (
    KnownPlayers,
    PlayerData,
    ddv_number_conflict,
    find_player,
    known_tournaments,
)
from . import bulk
from .wishes import KEEP, Keep, check_fixed_table


@dataclass(frozen=True)
class EntryAttributes:
    """What the prize categories ask of an entry (issue 38): optional, seen by the office
    only, never on a public page or in a public file; year of birth and sex are cleared with
    the personal data of a finished tournament."""

    birth_year: int | None = None
    sex: str = ""
    guest: bool = False
    newcomer: bool = False

    def check(self, tournament: Tournament | None = None) -> None:
        """Refuse an unknown sex, and a year of birth outside the models' range or after the
        ``tournament``'s year (nobody plays before they are born)."""
        if self.sex not in ("", *Sex.values):
            raise DomainError(_("Unknown choice for the sex."))
        check_birth_year(self.birth_year, tournament)


def last_birth_year(tournament: Tournament | None) -> int:
    """The latest year of birth a player of ``tournament`` can have: its year."""
    if tournament is None or tournament.date is None:
        return LAST_BIRTH_YEAR
    return min(LAST_BIRTH_YEAR, tournament.date.year)


def plausible_birth_year(year: int | None, tournament: Tournament | None) -> int | None:
    """``year`` when :func:`check_birth_year` takes it, else None: a year stored before the
    check (a registration typed earlier) is left out when carried over, never a refusal."""
    last = last_birth_year(tournament)
    return year if year is not None and FIRST_BIRTH_YEAR <= year <= last else None


def check_birth_year(year: int | None, tournament: Tournament | None = None) -> None:
    """Refuse a year of birth before :data:`FIRST_BIRTH_YEAR` or after the tournament's year
    (the entries, the online registration)."""
    last = last_birth_year(tournament)
    if year is not None and not FIRST_BIRTH_YEAR <= year <= last:
        raise DomainError(
            _("A year of birth must lie between %(first)s and %(last)s.")
            % {"first": FIRST_BIRTH_YEAR, "last": last}
        )


def next_start_number(tournament: Tournament) -> int:
    highest = tournament.entries.aggregate(m=Max("start_number"))["m"]
    return (highest or 0) + 1


def _team(tournament: Tournament, name: str, user) -> Team | None:
    name = name.strip()
    if not name:
        return None
    team = Team.objects.filter(tournament=tournament, name=name).first()
    if team is None:
        team = stamp(Team(tournament=tournament, name=name), user)
        team.save()
    return team


def register(
    tournament: Tournament,
    data: PlayerData,
    *,
    director=None,
    start_number: int | None = None,
    team_name: str = "",
    known_players: KnownPlayers | None = None,
    role: str = "",
    publish: bool = False,
    unverified: bool = False,
    attributes: EntryAttributes | None = None,
) -> Entry:
    """Register a person for ``tournament``, creating the player if ``director`` does not know
    them yet (see :func:`find_player`).

    Start numbers are handed out as the next free number above the highest one and never
    change afterwards (except by :func:`edit_entry` before the first draw); an
    explicit number must be free. An import passes one ``known_players`` for all its lines;
    an online registration its ``role`` for the history (see :func:`~.audit.stamp`) and
    ``unverified``: then the person is always a new player holding only the typed name and
    club (see :class:`KnownPlayers`); the caller has ruled out a namesake in the tournament.
    ``publish``: the player consented to be named on the public pages (README, "Datenschutz /
    privacy"). ``attributes``: what the prize categories ask (:class:`EntryAttributes`).
    """
    if attributes is not None:
        attributes.check(tournament)
    with transaction.atomic():
        # Lock the tournament row so that two registrations cannot take the same number.
        lock_tournament(tournament.pk)
        known = known_players or KnownPlayers(
            known_tournaments(director, tournament), tournament, keys=[data.name_key]
        )
        player = None if unverified else find_player(data, known)
        if ddv_number_conflict(data, player):
            raise conflict_error(data)
        existing = tournament.entries.filter(player=player).first() if player else None
        if existing is not None:
            raise already_registered_error(existing.player, existing.start_number)
        if start_number is not None:
            if tournament.entries.filter(start_number=start_number).exists():
                raise number_taken_error(start_number)
        else:
            start_number = next_start_number(tournament)
        if player is None:
            player = Player(
                first_name=data.first_name,
                last_name=data.last_name,
                club=data.club,
                ddv_number="" if unverified else data.ddv_number,
                unverified=unverified,
            )
            stamp(player, director, role=role).save()
            known.add(player)
        try:
            with transaction.atomic():
                entry = Entry(
                    tournament=tournament,
                    player=player,
                    start_number=start_number,
                    team=_team(tournament, team_name, director),
                    publish=publish,
                    **asdict(attributes or EntryAttributes()),
                )
                stamp(entry, director, role=role).save()
                return entry
        except IntegrityError:
            raise number_taken_error(start_number) from None


def conflict_error(data: PlayerData) -> DomainError:
    # The player database is shared: the holder's name is another tournament's data.
    return DomainError(
        _("DDV member number %(number)s belongs to a player with another name.")
        % {"number": data.ddv_number}
    )


def already_registered_error(player: Player, start_number: int) -> DomainError:
    # Adding again is no way to fix a typo: the message points to the entry's row.
    return DomainError(
        _(
            "%(name)s is already registered for this tournament with start number "
            "%(number)s. To correct name, club or team, use “Edit” in that row of the "
            "players page."
        )
        % {"name": player.full_name, "number": start_number}
    )


def number_taken_error(start_number: int) -> DomainError:
    return DomainError(_("Start number %(number)s is already taken.") % {"number": start_number})


def set_status(entry: Entry, status: str, user, reason: Reason = "", *, role: str = "") -> Entry:
    """Withdraw, re-admit or disqualify an entry; ``user`` does it (``role``: see
    :func:`~.audit.stamp`), for ``reason``. The start number stays with the entry."""
    if status not in EntryStatus.values:
        raise DomainError(_("Unknown status."))
    with transaction.atomic():
        entry = lock(Entry.objects).get(pk=entry.pk)
        entry.status = status
        if status != EntryStatus.ACTIVE:
            entry.checked_in = False
            entry.checked_in_at = None
        stamp(entry, user, reason, role=role)
        entry.save(update_fields=["status", "checked_in", "checked_in_at"])
    return entry


def set_publish(entry: Entry, publish: bool, user, reason: Reason = "", *, role: str = "") -> Entry:
    """Record the player's consent to be named on this tournament's public pages, or its
    withdrawal (README, "Datenschutz / privacy"); in the history with ``reason``. The online
    registration of the entry follows, so that the player's link shows the same. Saving the
    entry moves the tournament's results version: the cached public pages follow at once."""
    with transaction.atomic():
        entry = lock(Entry.objects).get(pk=entry.pk)
        if entry.publish == publish:
            return entry
        entry.publish = publish
        if not reason:
            reason = event("consent-given" if publish else "consent-withdrawn")
        stamp(entry, user, reason, role=role)
        entry.save(update_fields=["publish"])
        for registration in Registration.objects.filter(entry=entry).exclude(publish=publish):
            registration.publish = publish
            stamp(registration, user, reason, role=role).save(update_fields=["publish"])
    return entry


def set_attributes(
    entry: Entry, attributes: EntryAttributes, user, reason: Reason = "", *, role: str = ""
) -> Entry:
    """Set what the prize categories ask of an entry (year of birth, sex, guest, newcomer);
    nothing is written when nothing changes."""
    attributes.check(entry.tournament)
    with transaction.atomic():
        entry = lock(Entry.objects).get(pk=entry.pk)
        wanted = asdict(attributes)
        if all(getattr(entry, name) == value for name, value in wanted.items()):
            return entry
        for name, value in wanted.items():
            setattr(entry, name, value)
        stamp(entry, user, reason, role=role)
        entry.save(update_fields=list(wanted))
    return entry


def set_checked_in(entry: Entry, checked_in: bool, user, *, role: str = "") -> Entry:
    """Check a player in (or undo it). Only active entries can be checked in. ``role``: see
    :func:`~.audit.stamp` (the player on their personal link has no account)."""
    with transaction.atomic():
        entry = lock(Entry.objects).get(pk=entry.pk)
        if checked_in and entry.status != EntryStatus.ACTIVE:
            raise DomainError(_("Only active players can be checked in."))
        entry.checked_in = checked_in
        entry.checked_in_at = timezone.now() if checked_in else None
        stamp(entry, user, role=role)
        entry.save(update_fields=["checked_in", "checked_in_at"])
    return entry


def check_in(entry: Entry) -> Entry:
    """ "I am here" on the page of a player card's QR code, once the director has opened
    check-in (an online registration's link checks in through ``registrations.check_in``)."""
    if not entry.tournament.checkin_open or entry.status != EntryStatus.ACTIVE:
        raise DomainError(_("Check-in on this link is not open."))
    return set_checked_in(entry, True, None, role=PLAYER)


def check_in_all(tournament: Tournament, *, user=None) -> int:
    """Check in every active player not checked in yet, in one short transaction: one UPDATE
    and the history of every entry in bulk (no save per entry), saying who did it. Returns how
    many were checked in."""
    reason = event("all-present")
    role = role_of(user)
    with transaction.atomic():
        lock_tournament(tournament.pk)
        waiting = tournament.entries.filter(status=EntryStatus.ACTIVE, checked_in=False)
        # The rows locked (PostgreSQL; SQLite's write lock holds already): an entry withdrawn
        # at this moment waits, and is not checked in after its withdrawal.
        ids = list(lock(waiting).values_list("pk", flat=True))
        if not ids:
            return 0
        now = timezone.now()
        for start in range(0, len(ids), bulk.CHUNK):
            changed = Entry.objects.filter(pk__in=ids[start : start + bulk.CHUNK])
            changed.update(checked_in=True, checked_in_at=now)
            bulk.history(Entry, changed.values(), "~", user, role, reason)
        mark_changed(tournament, results=True)  # an UPDATE sends no signals
    return len(ids)


def check_in_number(tournament: Tournament, start_number: int, *, user=None) -> Entry:
    """Check in the player with ``start_number`` (the fast field at the desk). Refused with a
    message when nobody has the number, the player is not active or already checked in."""
    with transaction.atomic():
        entry = (
            lock(tournament.entries.all())
            .select_related("player")
            .filter(start_number=start_number)
            .first()
        )
        if entry is None:
            raise DomainError(_("Nobody has start number %(number)s.") % {"number": start_number})
        who = {"name": entry.player.full_name, "number": start_number}
        if entry.status == EntryStatus.WITHDRAWN:
            raise DomainError(_("%(name)s (%(number)s) is withdrawn: re-admit them first.") % who)
        if entry.status != EntryStatus.ACTIVE:
            raise DomainError(_("%(name)s (%(number)s) is disqualified.") % who)
        if entry.checked_in:
            raise DomainError(_("%(name)s (%(number)s) is already checked in.") % who)
        entry.checked_in, entry.checked_in_at = True, timezone.now()
        stamp(entry, user)
        entry.save(update_fields=["checked_in", "checked_in_at"])
    return entry


def _changeable(user) -> QuerySet[Player]:
    """What ``user`` may change in the player database; no user: the command line, all."""
    return Player.objects.all() if user is None else changeable_players(user)


def start_number_locked(tournament: Tournament) -> bool:
    """Start numbers are fixed once the first round is drawn: table plans, sheets and player
    cards use them."""
    return tournament.rounds.exists()


def _ddv_holder(number: str, player: Player) -> Player | None:
    if not number or number == player.ddv_number:
        return None
    return Player.objects.filter(ddv_number=number).exclude(pk=player.pk).first()


def _namesake(tournament: Tournament, data: PlayerData, player: Player) -> Entry | None:
    """Another entry of the tournament whose player has the name ``data`` gives, spelled any
    way registration takes for the same person (see ``Player.name_key``)."""
    key = data.name_key
    if key == player.name_key:
        return None
    others = tournament.entries.exclude(player=player).select_related("player")
    return next((entry for entry in others if entry.player.name_key == key), None)


def edit_entry(
    entry: Entry,
    data: PlayerData,
    *,
    team_name: str,
    start_number: int,
    user,
    reason: Reason = "",
    role: str = "",
    publish: bool | None = None,
    attributes: EntryAttributes | None = None,
    fixed_table: int | None | Keep = KEEP,
) -> Entry:
    """Correct an entry: the player's name, club and DDV member number, the team, (before
    the first draw) the start number and, when given, the consent to be named (``publish``,
    the online registration follows as in :func:`set_publish`), what the prize categories
    ask (``attributes``) and the seat wish of a fixed table (``fixed_table``, a table
    number or None; checked as ``wishes.set_fixed_table`` does). All or nothing in one
    transaction, one history record of the entry; refused with a message otherwise."""
    typed = reason.strip() if not isinstance(reason, Event) else reason
    if not isinstance(reason, Event):
        reason = reason.strip() or event("entry-corrected")
    if attributes is not None:
        attributes.check(entry.tournament)
    with transaction.atomic():
        # Tournament, player, entry: the lock order of merge_players.
        lock_tournament(entry.tournament_id)
        player_id = Entry.objects.filter(pk=entry.pk).values_list("player_id", flat=True).get()
        player = lock(Player.objects).get(pk=player_id)
        entry = lock(Entry.objects).get(pk=entry.pk)
        tournament = entry.tournament
        wanted = (data.first_name, data.last_name, data.club, data.ddv_number)
        current = (player.first_name, player.last_name, player.club, player.ddv_number)
        if wanted != current:
            if not _changeable(user).filter(pk=player.pk).exists():
                raise DomainError(
                    _(
                        "%(name)s also plays in a tournament you do not direct: name, club "
                        "and DDV member number can only be corrected by an administrator."
                    )
                    % {"name": player.full_name}
                )
            twin = _namesake(tournament, data, player)
            if twin is not None:
                raise DomainError(
                    _(
                        "%(name)s is already registered for this tournament with start number "
                        "%(number)s. If they are one person, merge the two players."
                    )
                    % {"name": twin.player.full_name, "number": twin.start_number}
                )
            if _ddv_holder(data.ddv_number, player) is not None:
                raise DomainError(
                    _(
                        "DDV member number %(number)s belongs to another player in the player "
                        "database. If it is the same person, merge the two players."
                    )
                    % {"number": data.ddv_number}
                )
        if start_number != entry.start_number:
            if start_number_locked(tournament):
                raise DomainError(
                    _("The start number cannot change any more: the first round has been drawn.")
                )
            if tournament.entries.filter(start_number=start_number).exists():
                raise DomainError(
                    _("Start number %(number)s is already taken.") % {"number": start_number}
                )
        if not isinstance(fixed_table, Keep) and fixed_table != entry.fixed_table:
            check_fixed_table(entry, fixed_table)
        team = _team(tournament, team_name, user)
        try:
            # Savepoints: a number taken meanwhile by another request is a message, not a 500.
            if wanted != current:
                player.first_name, player.last_name, player.club, player.ddv_number = wanted
                # What a director (or a command) writes is theirs: no longer only what a
                # stranger typed online (see registrations.accept_identity).
                player.unverified = player.unverified and role == PLAYER
                stamp(player, user, reason, role=role)
                with transaction.atomic():
                    player.save()
            changed = []
            if (start_number, team) != (entry.start_number, entry.team):
                entry.start_number, entry.team = start_number, team
                changed += ["start_number", "team"]
            if publish is not None and publish != entry.publish:
                entry.publish = publish
                changed.append("publish")
                if not typed:  # a change of consent says so in the history
                    reason = event("consent-given" if publish else "consent-withdrawn")
            wanted_attributes = asdict(attributes) if attributes is not None else {}
            for name, value in wanted_attributes.items():
                if getattr(entry, name) != value:
                    setattr(entry, name, value)
                    changed.append(name)
            if not isinstance(fixed_table, Keep) and fixed_table != entry.fixed_table:
                entry.fixed_table = fixed_table
                changed.append("fixed_table")
            if changed:
                stamp(entry, user, reason, role=role)
                with transaction.atomic():
                    entry.save(update_fields=changed)
            if "publish" in changed:
                consent = entry.publish
                registrations = Registration.objects.filter(entry=entry).exclude(publish=consent)
                for registration in registrations:
                    registration.publish = consent
                    stamp(registration, user, reason, role=role).save(update_fields=["publish"])
        except IntegrityError:
            raise DomainError(
                _("Start number %(number)s or DDV member number %(ddv)s was taken meanwhile.")
                % {"number": start_number, "ddv": data.ddv_number or "–"}
            ) from None
    return entry
