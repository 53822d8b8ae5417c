from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.penalties import Category

from .audit import AuditRole
from .round import Table
from .tournament import Entry, Tournament

# The categories are the rules engine's (scoring.penalties.Category, stored by value); the
# site only adds the words it shows for them.
CATEGORY_LABELS = {
    Category.UNERHEBLICH: _("negligible (no points)"),
    Category.GERINGFUEGIG: _("minor"),
    Category.SCHWERWIEGEND: _("serious"),
    Category.DECIDED_GAME: _("violation in an already decided game"),
    Category.WARNING: _("unsportsmanlike: warning"),
    Category.DEDUCTION: _("unsportsmanlike: point deduction"),
    Category.DISQUALIFICATION: _("unsportsmanlike: disqualification"),
}
CATEGORY_CHOICES = [(category.value, CATEGORY_LABELS[category]) for category in Category]


class PenaltyContext(models.TextChoices):
    """Which scale applies (TSR 9.3-9.4, 4.4.3b, 4.4.5): a Hochzeit or stille Hochzeit is
    judged as a normal game until it became a solo, as a solo afterwards."""

    NORMAL = "normal", _("normal game")
    SOLO = "solo", _("solo")
    HOCHZEIT_BEFORE = "hochzeit-vor", _("Hochzeit / stille Hochzeit, before it became a solo")
    HOCHZEIT_AFTER = "hochzeit-nach", _("Hochzeit / stille Hochzeit, after it became a solo")


class PenaltyState(models.TextChoices):
    DRAFT = "draft", _("not signed")
    SIGNED = "signed", _("signed")
    REVOKED = "revoked", _("revoked")


def state_of(penalty) -> str:
    """The state of a penalty or of one of its history records."""
    if penalty.revoked_at is not None:
        return PenaltyState.REVOKED
    return PenaltyState.SIGNED if penalty.signed_at is not None else PenaltyState.DRAFT


def state_label(penalty) -> str:
    return str(PenaltyState(state_of(penalty)).label)


def points_of(penalty) -> list[int]:
    """The row, one value per position (p5 is set at five-tables only); for a penalty or one
    of its history records."""
    values = [penalty.p1, penalty.p2, penalty.p3, penalty.p4, penalty.p5]
    return values if penalty.p5 is not None else values[:4]


def next_number(tournament_id: int) -> int:
    """The number of a new penalty: one above the tournament's highest. Call it under the
    tournament's lock (see ``domain.penalties.enter``) so that two referees saving at the
    same moment do not both take it."""
    highest = Penalty.objects.filter(tournament_id=tournament_id).aggregate(models.Max("number"))
    return (highest["number__max"] or 0) + 1


class PenaltyQuerySet(models.QuerySet):
    def counting(self):
        """The penalties that count: signed by a referee and not revoked."""
        return self.filter(signed_at__isnull=False, revoked_at__isnull=True)


class Penalty(models.Model):
    """Strafpunkte: a referee's decision, as its own row on the table's Spielliste.

    It counts only once signed (``referee`` and ``signed_at`` set, TSR 8.2.2) and until it is
    revoked. A penalty is never deleted: the Schiedsgericht revokes it with a reason and, if
    needed, replaces it by a new one (``replaces``).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    # The tournament of the table (kept here so that the number can be unique in it) and the
    # penalty's number in that tournament: 1, 2, 3 in the order they were entered. The
    # referees and the exports call a penalty by this number; URLs keep the primary key.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="penalties", editable=False
    )
    number = models.PositiveIntegerField(_("penalty no."), editable=False)
    game_number = models.PositiveSmallIntegerField(_("game"))
    offender = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="penalties", verbose_name=_("offender")
    )
    offender_position = models.PositiveSmallIntegerField(_("position"), null=True, blank=True)
    category = models.CharField(_("category"), max_length=20, choices=CATEGORY_CHOICES)
    context = models.CharField(
        _("game situation"),
        max_length=16,
        choices=PenaltyContext.choices,
        default=PenaltyContext.NORMAL,
    )
    soloist_position = models.PositiveSmallIntegerField(_("soloist"), null=True, blank=True)
    disadvantages_soloist = models.BooleanField(_("could disadvantage the soloist"), default=False)
    absagen = models.PositiveSmallIntegerField(_("Absagen of the other party (k)"), default=0)
    deduction = models.PositiveSmallIntegerField(_("deduction"), default=0)
    p1 = models.IntegerField(default=0)
    p2 = models.IntegerField(default=0)
    p3 = models.IntegerField(default=0)
    p4 = models.IntegerField(default=0)
    p5 = models.IntegerField(null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entered_penalties",
        verbose_name=_("entered by"),
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="signed_penalties",
        verbose_name=_("referee"),
    )
    signed_at = models.DateTimeField(_("signed at"), null=True, blank=True)
    reason = models.TextField(_("reason"), max_length=2000, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="revoked_penalties",
        verbose_name=_("revoked by"),
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoke_reason = models.TextField(_("reason for the revocation"), max_length=2000, blank=True)
    # Made by the form that entered it: the same form sent twice stores one penalty.
    client_id = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    # What a signed disqualification changed the entry's status from (to restore on revoke).
    entry_status_before = models.CharField(max_length=12, blank=True, editable=False)
    replaces = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("replaces"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["created_at"], bases=[AuditRole])

    objects = PenaltyQuerySet.as_manager()

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["table", "game_number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="penalty_number_unique_per_tournament"
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="penalty_number_min"),
            models.CheckConstraint(
                condition=models.Q(game_number__gte=1), name="penalty_game_number_min"
            ),
            models.CheckConstraint(
                condition=models.Q(category__in=[category.value for category in Category]),
                name="penalty_category_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(context__in=PenaltyContext.values),
                name="penalty_context_valid",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(referee__isnull=True, signed_at__isnull=True)
                    | models.Q(referee__isnull=False, signed_at__isnull=False)
                ),
                name="penalty_signature_complete",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(revoked_by__isnull=True, revoked_at__isnull=True)
                    | models.Q(revoked_by__isnull=False, revoked_at__isnull=False)
                ),
                name="penalty_revocation_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.game_number}: {self.get_category_display()}"

    def save(self, *args, **kwargs):
        # The domain verb sets both under the tournament's lock; this keeps any other writer
        # (the admin, a script) consistent, and the unique constraint guards the rest.
        if self.tournament_id is None:
            self.tournament_id = self.table.round.tournament_id
        if self.number is None:
            self.number = next_number(self.tournament_id)
        super().save(*args, **kwargs)

    @property
    def is_signed(self) -> bool:
        return self.signed_at is not None

    @property
    def state(self) -> str:
        return state_of(self)

    def get_state_display(self) -> str:
        return state_label(self)

    @property
    def counts(self) -> bool:
        return self.state == PenaltyState.SIGNED

    @property
    def points(self) -> list[int]:
        return points_of(self)


class RefereeCall(models.Model):
    """A table asks for a referee (from the list keeper's page); open until a referee or
    director marks it handled."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    game_number = models.PositiveSmallIntegerField(_("game"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="handled_referee_calls",
        verbose_name=_("handled by"),
    )
    history = HistoricalRecords(bases=[AuditRole])

    class Meta:
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"{self.table}: {self.note}"


def signed_points(points) -> str:
    """A penalty row as the referee reads it: +3 / 0 / 0 / -3."""
    return " / ".join(f"{value:+d}" if value else "0" for value in points)
