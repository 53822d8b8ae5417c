import secrets
import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.profiles import CUSTOM, PROFILES, RuleProfile, derive, get_profile

from .audit import AuditEvent, AuditRole
from .round_status import RoundStatus
from .round_status import started as round_started

SLUG_MAX = 60  # characters of a tournament's short name

PROFILE_LABELS = {
    "ddv": _("DDV tournament rules 2026"),
    "bsv-hessen-2010": _("BSV Hessen 2010 (40 cards)"),
    "eppstein-2001": _("Eppstein 2001 (plus points)"),
    CUSTOM: _("Custom (derived from another profile)"),
}


def profile_base(rule_profile: str | None, custom_base: str | None) -> str:
    """The shipped profile whose rule text applies to a choice of ``rule_profile`` (and, for
    a custom one, ``custom_base``); the DDV one for anything unknown."""
    key = custom_base if rule_profile == CUSTOM else rule_profile
    return key if key in PROFILES else "ddv"


PROFILE_CHOICES = [(key, PROFILE_LABELS[key]) for key in [*PROFILES, CUSTOM]]


class TournamentStatus(models.TextChoices):
    PLANNED = "planned", _("planned")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


TIEBREAK_CHOICES = [
    ("shared", _("share the rank")),
    ("best-round", _("better best round ranks higher")),
    ("rounds-played", _("more rounds played ranks higher")),
    ("best-round,rounds-played", _("best round, then rounds played")),
]


# The longest delay before a closed round's results go to the results service (a day).
PUBLISH_DELAY_MAX = 24 * 60

# Seconds each page of the projector view stays on the screen.
PROJECTOR_SECONDS_MIN, PROJECTOR_SECONDS_MAX = 5, 120


def new_projector_token() -> str:
    """A secret for the projector link: 144 random bits, URL-safe."""
    return secrets.token_urlsafe(18)


def status_from(*, started: int, closed: int, playing: int, planned_rounds: int) -> str:
    """The tournament's status from its rounds: planned until a round is started (released to
    the tables; a drawn plan is not started), finished once
    the planned rounds are closed and no round is being played (the moment the standings
    become final), running between. A director who ends the tournament early lowers the
    planned rounds to those played."""
    if closed >= planned_rounds and not playing:
        return TournamentStatus.FINISHED
    return TournamentStatus.RUNNING if started else TournamentStatus.PLANNED


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def with_status(self) -> "TournamentQuerySet":
        """Count each tournament's started and closed rounds in the same query, so that a list
        of tournaments shows their status without a query per tournament."""
        return self.annotate(
            rounds_started_count=models.Count(
                "rounds", filter=round_started("rounds__"), distinct=True
            ),
            rounds_closed_count=models.Count(
                "rounds", filter=models.Q(rounds__status=RoundStatus.CLOSED), distinct=True
            ),
            rounds_playing_count=models.Count(
                "rounds", filter=models.Q(rounds__status=RoundStatus.RELEASED), distinct=True
            ),
        )


class KeepsVersion(models.Model):
    """A model with a ``version`` that only the database bumps (tournament/base/versions.py): a
    save of an object read earlier never writes back the number it was read with."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "version"
            ]
        super().save(*args, **kwargs)


class Tournament(KeepsVersion, models.Model):
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("short name (URL)"), max_length=SLUG_MAX, unique=True)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    rule_profile = models.CharField(
        _("rule profile"), max_length=30, choices=PROFILE_CHOICES, default="ddv"
    )
    # For a custom profile: the shipped profile it starts from and the changed parameters.
    custom_base = models.CharField(
        _("custom profile based on"),
        max_length=30,
        choices=[(k, PROFILE_LABELS[k]) for k in PROFILES],
        blank=True,
    )
    custom_overrides = models.JSONField(_("changed parameters"), default=dict, blank=True)
    planned_rounds = models.PositiveSmallIntegerField(
        _("planned rounds"), default=3, validators=[MinValueValidator(1)]
    )
    separate_clubs_rounds = models.PositiveSmallIntegerField(
        _("keep clubs apart in the first rounds"),
        default=0,
        help_text=_("The draw avoids seating players of one club together in this many rounds."),
    )
    # Seat wishes (issue 39): team-mates never share a table in any round (a hard wish, unlike
    # the club separation above, which only avoids it in the first rounds).
    teams_apart = models.BooleanField(
        _("keep team-mates apart in every round"),
        default=False,
        help_text=_("The draw never seats two players of one team at one table."),
    )
    is_public = models.BooleanField(_("public"), default=False)
    standings_live = models.BooleanField(
        _("live standings (provisional)"),
        default=False,
        help_text=_(
            "Count every entered game at once, marked as provisional. Otherwise only "
            "confirmed sheets and closed rounds count."
        ),
    )
    tiebreak = models.CharField(
        _("equal totals"),
        max_length=30,
        choices=TIEBREAK_CHOICES,
        default="shared",
    )
    # No stored status: it follows from the rounds (see ``status``), so that no page can
    # show "planned" while rounds are played.
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="directed_tournaments",
        blank=True,
        verbose_name=_("directors"),
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="refereed_tournaments",
        blank=True,
        verbose_name=_("referees"),
    )
    projector_seconds = models.PositiveSmallIntegerField(
        _("projector: seconds per page"),
        default=12,
        validators=[
            MinValueValidator(PROJECTOR_SECONDS_MIN),
            MaxValueValidator(PROJECTOR_SECONDS_MAX),
        ],
        help_text=_(
            "The projector view shows the clock, the seating, the tables and the standings "
            "in turn; each page stays this many seconds (5 to 120)."
        ),
    )
    # The key of the projector link: the page works without login, also for a tournament
    # that is not public, for whoever holds the link.
    projector_token = models.CharField(
        max_length=32, unique=True, default=new_projector_token, editable=False
    )
    # Online registration (see models/registration.py): off until the director switches it on.
    registration_open = models.BooleanField(
        _("online registration"),
        default=False,
        help_text=_(
            "Players register themselves on the public page and get a personal link by e-mail."
        ),
    )
    registration_capacity = models.PositiveSmallIntegerField(
        _("places"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Registrations beyond this number go on the waiting list."),
    )
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    registration_approval = models.BooleanField(
        _("confirm registrations by hand"),
        default=False,
        help_text=_("A registration within the places waits for a director's approval."),
    )
    # The director's emergency stop (a flood of junk registrations): the form says that
    # registration is paused and takes nothing until it is switched off again.
    registration_paused = models.BooleanField(
        _("pause registration"),
        default=False,
        help_text=_("The form stays visible but takes no registrations until you switch this off."),
    )
    registration_consent = models.TextField(
        _("consent line"),
        blank=True,
        max_length=1000,
        help_text=_("What a player agrees to when registering. Empty: the standard text."),
    )
    entry_fee = models.DecimalField(
        _("entry fee (EUR)"),
        max_digits=6,
        decimal_places=2,
        default=Decimal("0.00"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    # Hidden standings (issue 38): from this round on the public pages, the projector and
    # the results service show no results until the director reveals them after the prize
    # ceremony (None: nothing hidden). The office always sees everything.
    hide_standings_from = models.PositiveSmallIntegerField(
        _("hide the public standings from round"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_(
            "Empty: nothing hidden. From this round on the public standings, the projector "
            "and the results service show no results until you reveal them after the prize "
            "ceremony; the office sees everything."
        ),
    )
    checkin_open = models.BooleanField(
        _("check-in by personal link"),
        default=False,
        help_text=_("Players who registered online check in on their personal link."),
    )
    # Publishing to the results service (tournament/publishing): off until the director opts
    # in; the delay and "closed rounds only" hold results back from the internet, never from
    # the hall's own pages.
    publish_results = models.BooleanField(
        _("publish on the results service"),
        default=False,
        help_text=_(
            "Whenever the public pages change, the laptop sends them to the results service "
            "as soon as it has a connection (see Results service)."
        ),
    )
    publish_delay_minutes = models.PositiveSmallIntegerField(
        _("publish results after (minutes)"),
        default=0,
        validators=[MaxValueValidator(PUBLISH_DELAY_MAX)],
        help_text=_(
            "0: at once. Otherwise a round's results go online only this many minutes after "
            "the round is closed; the table plan goes online at once."
        ),
    )
    publish_closed_rounds_only = models.BooleanField(
        _("publish closed rounds only"),
        default=False,
        help_text=_("The results of a round being played stay in the hall until it is closed."),
    )
    # The same tournament (player, series) on every laptop and on the results service: kept by
    # an archive's round trip, so a moved or published copy is recognised (tournament/archive).
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # On the results service (tournament/service): the club whose hall publishes this
    # tournament; set, the tournament is a replica, read-only here and replaced by each
    # publication. The published_* fields say which state of the hall it shows.
    club = models.ForeignKey(
        "tournament.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("published by club"),
    )
    published_at = models.DateTimeField(_("published state of"), null=True, blank=True)
    published_sequence = models.BigIntegerField(default=0, editable=False)
    published_digest = models.CharField(max_length=64, blank=True, editable=False)
    # The tournament's short name in the hall (the replica's own is "<club>-<hall slug>").
    published_slug = models.SlugField(max_length=SLUG_MAX, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped by every verb that changes what the tournament's pages and files show (see
    # tournament/base/versions.py): cached pages and documents are keyed by it. Never edited.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    # Bumped by every change but the games, sheets and penalties of a round (what the keepers
    # write all day): rounds, seats, entries, stored results, the tournament's settings. The
    # series pages and files, the table plan and the participant list are keyed by it, so
    # they stay valid while the hall plays.
    results_version = models.PositiveBigIntegerField(default=0, editable=False)
    # The referee list has a history too: who added or removed a referee, in which role.
    history = HistoricalRecords(
        excluded_fields=[
            "created_at",
            "projector_token",
            "version",
            "results_version",
            "published_at",
            "published_sequence",
            "published_digest",
            "published_slug",
        ],
        m2m_fields=["referees"],
        bases=[AuditRole],
    )

    objects = TournamentQuerySet.as_manager()

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rule_profile__in=[*PROFILES, CUSTOM]),
                name="tournament_rule_profile_known",
            ),
            models.CheckConstraint(
                condition=models.Q(planned_rounds__gte=1), name="tournament_planned_rounds_min"
            ),
            models.CheckConstraint(
                condition=models.Q(entry_fee__gte=0), name="tournament_entry_fee_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(tiebreak__in=[k for k, _label in TIEBREAK_CHOICES]),
                name="tournament_tiebreak_known",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    projector_seconds__gte=PROJECTOR_SECONDS_MIN,
                    projector_seconds__lte=PROJECTOR_SECONDS_MAX,
                ),
                name="tournament_projector_seconds_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("manage:entry-list", args=[self.slug])

    @property
    def status(self) -> str:
        """planned, running or finished (a :class:`TournamentStatus`), from the rounds: the
        counts of ``with_status()`` when the tournament was read with them, else one query."""
        started = getattr(self, "rounds_started_count", None)
        closed = getattr(self, "rounds_closed_count", None)
        playing = getattr(self, "rounds_playing_count", None)
        if started is None or closed is None or playing is None:
            counts = self.rounds.aggregate(
                started=models.Count("pk", filter=round_started()),
                closed=models.Count("pk", filter=models.Q(status=RoundStatus.CLOSED)),
                playing=models.Count("pk", filter=models.Q(status=RoundStatus.RELEASED)),
            )
            started, closed, playing = counts["started"], counts["closed"], counts["playing"]
        return status_from(
            started=started, closed=closed, playing=playing, planned_rounds=self.planned_rounds
        )

    def get_status_display(self) -> str:
        return str(TournamentStatus(self.status).label)

    @property
    def profile(self) -> RuleProfile:
        """The rule profile in force, custom overrides applied."""
        if self.rule_profile == CUSTOM:
            return derive(self.custom_base or "ddv", self.custom_overrides)
        return get_profile(self.rule_profile)

    @property
    def profile_base(self) -> str:
        """The shipped profile whose rule text applies: the chosen one, a custom profile's
        base."""
        return profile_base(self.rule_profile, self.custom_base)


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team"), max_length=150)
    history = HistoricalRecords(bases=[AuditEvent])

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique")
        ]

    def __str__(self) -> str:
        return self.name


class ApartGroup(models.Model):
    """Players who never share a table, in any round (a seat wish: a couple, a parent and
    child). A pair is a group of two; its members are the entries whose ``apart_group`` it
    is, so an entry belongs to at most one group."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="apart_groups"
    )
    note = models.CharField(_("note"), max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["created_at"], bases=[AuditRole])

    class Meta:
        verbose_name = _("never-together group")
        verbose_name_plural = _("never-together groups")
        ordering = ["tournament", "pk"]

    def __str__(self) -> str:
        return self.note or f"{self.tournament} #{self.pk}"


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    WITHDRAWN = "withdrawn", _("withdrawn")
    DISQUALIFIED = "disqualified", _("disqualified")


# The years of birth the site takes (prize categories, entries, registrations): one range.
FIRST_BIRTH_YEAR, LAST_BIRTH_YEAR = 1900, 2100
# What the prize categories ask of an entry: personal data, kept out of the history.
PRIZE_ATTRIBUTES = ("birth_year", "sex", "guest", "newcomer")
BIRTH_YEAR_VALIDATORS = [MinValueValidator(FIRST_BIRTH_YEAR), MaxValueValidator(LAST_BIRTH_YEAR)]
# The highest table a seat wish can fix a player to (Entry.fixed_table): the draw seats at most
# 1,000 players (domain.draw.MAX_DRAW_PLAYERS), at 250 tables.
MAX_FIXED_TABLE = 250


class Sex(models.TextChoices):
    FEMALE = "f", _("female")
    MALE = "m", _("male")
    DIVERSE = "d", _("diverse")


class FeeStatus(models.TextChoices):
    OPEN = "open", _("not paid")
    PAID = "paid", _("paid")
    WAIVED = "waived", _("waived")


# The personal confirmation code of an entry: five digits, typed on a phone's number pad.
CONFIRM_CODE_LENGTH = 5


def new_confirm_code() -> str:
    """Five random digits from 10000 to 99999: no leading zero that a number field or a
    spreadsheet could drop."""
    lowest = 10 ** (CONFIRM_CODE_LENGTH - 1)
    return str(lowest + secrets.randbelow(9 * lowest))


def new_personal_token() -> str:
    """The secret of an entry's personal page (the QR code of the player card): 192 random
    bits, URL-safe, like a registration's link."""
    return secrets.token_urlsafe(24)


def pseudonym(number: int) -> str:
    """How the public pages name a player who did not consent to publication: by a number
    that stays the same within the tournament (the start number) or the series."""
    return gettext("Player %(number)s") % {"number": number}


class Entry(models.Model):
    """A player's registration for one tournament, with a stable start number."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        "tournament.Player", on_delete=models.PROTECT, related_name="entries"
    )
    start_number = models.PositiveIntegerField(_("start number"))
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("team"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    # The player's secret for the day, printed on their player card: confirming a sheet on
    # the table's link needs start number and code, so that "confirmed by another player"
    # means that player. Never in the history, never on a public page.
    confirm_code = models.CharField(
        _("confirmation code"),
        max_length=CONFIRM_CODE_LENGTH,
        default=new_confirm_code,
        editable=False,
    )
    # The player's page for the day (README, "The player's page"), printed as a QR code on
    # the player card: it shows the confirmation code, so it is a secret like the code, never
    # in the history, renewed with the code. None once the personal data is deleted.
    token = models.CharField(  # noqa: DJ001
        max_length=40, unique=True, null=True, default=new_personal_token, editable=False
    )
    fee = models.CharField(
        _("entry fee"), max_length=8, choices=FeeStatus.choices, default=FeeStatus.OPEN
    )
    # The player's consent to be named on the public pages of this tournament (README,
    # "Datenschutz / privacy"): per entry, so that a consent given for one tournament never
    # publishes another. Without it the public pages show ``pseudonym(start_number)``.
    publish = models.BooleanField(_("name published"), default=False)
    # Who ticked the fee last, and when (the history has every change).
    fee_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fee ticked by"),
    )
    fee_changed_at = models.DateTimeField(_("fee ticked at"), null=True, blank=True)
    # What the prize categories ask (issue 38): optional, never on a public page or in a
    # public file, cleared with the personal data of a finished tournament.
    birth_year = models.PositiveSmallIntegerField(
        _("year of birth"),
        null=True,
        blank=True,
        validators=BIRTH_YEAR_VALIDATORS,
    )
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    guest = models.BooleanField(_("guest"), default=False)
    newcomer = models.BooleanField(_("newcomer"), default=False)
    # Seat wishes (issue 39): never at one table with the other members of this group, and
    # always at this table number (e.g. a wheelchair place by the door).
    apart_group = models.ForeignKey(
        ApartGroup,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("never-together group"),
    )
    fixed_table = models.PositiveSmallIntegerField(
        _("fixed table"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("The player sits at this table in every round."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(
        excluded_fields=["created_at", "confirm_code", "token", *PRIZE_ATTRIBUTES],
        bases=[AuditRole],
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "start_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "start_number"], name="entry_start_number_unique"
            ),
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_unique"),
            models.CheckConstraint(
                condition=models.Q(start_number__gte=1), name="entry_start_number_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=EntryStatus.values), name="entry_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(fee__in=FeeStatus.values), name="entry_fee_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start_number} {self.player}"

    @property
    def public_name(self) -> str:
        """The name the public pages show: the player's, or without their consent the
        pseudonym of the start number."""
        return self.player.full_name if self.publish else pseudonym(self.start_number)

    @property
    def public_club(self) -> str:
        """The club the public pages show: none without the player's consent."""
        return self.player.club if self.publish else ""
