import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .audit import AuditRole
from .round_status import STARTED, RoundStatus
from .tournament import Entry, Tournament


class RoundQuerySet(models.QuerySet["Round"]):
    def started(self) -> "RoundQuerySet":
        """The rounds released to the tables (see :data:`.round_status.STARTED`)."""
        return self.filter(status__in=STARTED)


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.PLANNED
    )
    draw_seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    # The round clock: starts when the round is released (TSR 8.5.1).
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    history = HistoricalRecords(bases=[AuditRole])

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_min"),
            models.CheckConstraint(
                condition=models.Q(status__in=RoundStatus.values), name="round_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}

    @property
    def started(self) -> bool:
        """Released to the tables: being played or closed (a drawn round is not started)."""
        return self.status in STARTED


def new_table_token() -> str:
    """A secret for a table's entry link: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


class Table(models.Model):
    """A table of a round; its Spielliste and the list's workflow are its :class:`Sheet`
    (``table.sheet``), created with it."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    size = models.PositiveSmallIntegerField(_("players"), choices=[(4, "4"), (5, "5")])
    token = models.CharField(max_length=64, unique=True, default=new_table_token, editable=False)
    history = HistoricalRecords(excluded_fields=["token"], bases=[AuditRole])

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=models.Q(size__in=[4, 5]), name="table_size_4_or_5"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="table_number_min"),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


class Seat(models.Model):
    """An entry's place at a table. ``round`` repeats ``table.round`` so that the database
    itself can forbid seating one entry twice in a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("position"))
    history = HistoricalRecords(bases=[AuditRole])

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_one_per_entry_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.CheckConstraint(
                condition=models.Q(position__gte=1, position__lte=5), name="seat_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.position}: {self.entry}"

    def save(self, *args, **kwargs):
        self.round_id = self.table.round_id
        super().save(*args, **kwargs)

    def clean(self) -> None:
        if self.table_id and self.entry_id:
            if self.entry.tournament_id != self.table.round.tournament_id:
                raise ValidationError(_("The entry belongs to another tournament."))
            if self.position and self.position > self.table.size:
                raise ValidationError(_("The table has no such position."))


class SeatMail(models.Model):
    """The seat a player was last told by e-mail for a round (``tournament.tasks.mail.send_seats``):
    a release mails only those whose table or position differs from what they were told, so
    a round released again (or the worker's task run twice) mails nobody twice."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seat_mails")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seat_mails")
    table_number = models.PositiveSmallIntegerField(_("table"))
    position = models.PositiveSmallIntegerField(_("position"))
    sent_at = models.DateTimeField(_("sent"), auto_now=True)

    class Meta:
        verbose_name = _("seat mail")
        verbose_name_plural = _("seat mails")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_mail_one_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} / {self.entry}: {self.table_number}/{self.position}"


class DrawLog(models.Model):
    """Every draw, redraw and manual swap of a round, with the seed that reproduces it."""

    class Action(models.TextChoices):
        DRAW = "draw", _("draw")
        REDRAW = "redraw", _("redraw")
        SWAP = "swap", _("swap")
        RELEASE = "release", _("release")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="draw_logs")
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    at = models.DateTimeField(_("time"), auto_now_add=True)
    seconds = models.FloatField(_("seconds"), null=True, blank=True)
    repeat_pairs = models.PositiveIntegerField(_("repeat encounters"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    # The clock, not the work budget, ended the search: the seed may not reproduce the plan.
    cut_by_clock = models.BooleanField(_("cut short by the clock"), default=False)
    # When fair 5-tables cost repeats: the repeats of the whole drawn plan, and the repeats
    # and 5-table spread of the best plan a search found that ignored fairness.
    plan_repeats = models.PositiveIntegerField(_("repeats in the plan"), null=True, blank=True)
    unfair_repeats = models.PositiveIntegerField(
        _("repeats without fair 5-tables"), null=True, blank=True
    )
    unfair_spread = models.PositiveIntegerField(
        _("5-table spread without fair 5-tables"), null=True, blank=True
    )
    # The whole plan of a draw (every planned round: tables of entry ids), on its entry for
    # the first round it drew: once that round is played as drawn, the next draw continues
    # the plan, so drawing one round at a time loses nothing against drawing all at once.
    plan = models.JSONField(_("planned rounds"), null=True, blank=True, editable=False)
    # When the draw had seat wishes (issue 39): what they were and what they cost, on every
    # entry of the draw (see domain.draw.wish_cost for the keys).
    wish_cost = models.JSONField(
        _("cost of the seat wishes"), null=True, blank=True, editable=False
    )

    class Meta:
        verbose_name = _("draw log entry")
        verbose_name_plural = _("draw log")
        ordering = ["round", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.round} {self.get_action_display()} {self.seed or ''}".strip()


def seats_with_players() -> models.Prefetch:
    """A table's seats in their order, each with its entry and player, for
    ``Table.objects.prefetch_related(seats_with_players())``.

    Prefetching "seats__entry__player" instead fetches the entries by their keys, which
    Django 5.2 writes for SQLite as one "id = ? OR id = ? …" chain: from 999 entries on, that
    passes SQLite's limit of 1,000 nested expressions and the page fails, below the
    documented field of 1,000 players. Joined to the seats, the entries come along with them.
    """
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return models.Prefetch("seats", queryset=seats)
