from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .round import Table
from .tournament import Entry


class PenaltyCategory(models.TextChoices):
    UNERHEBLICH = "unerheblich", _("unerheblich (no points)")
    GERINGFUEGIG = "geringfuegig", _("geringfügig")
    SCHWERWIEGEND = "schwerwiegend", _("schwerwiegend")
    DECIDED_GAME = "entschieden", _("violation in an already decided game")
    WARNING = "verwarnung", _("unsportsmanlike: warning")
    DEDUCTION = "punktabzug", _("unsportsmanlike: point deduction")
    DISQUALIFICATION = "disqualifikation", _("unsportsmanlike: disqualification")


class Penalty(models.Model):
    """Strafpunkte: a referee's decision, as its own row on the table's Spielliste.

    It counts only once signed (``referee`` and ``signed_at`` set, TSR 8.2.2).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    game_number = models.PositiveSmallIntegerField(_("game"))
    offender = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="penalties", verbose_name=_("offender")
    )
    category = models.CharField(_("category"), max_length=20, choices=PenaltyCategory.choices)
    p1 = models.IntegerField(default=0)
    p2 = models.IntegerField(default=0)
    p3 = models.IntegerField(default=0)
    p4 = models.IntegerField(default=0)
    p5 = models.IntegerField(null=True, blank=True)
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
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["created_at"])

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["table", "game_number", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game_number__gte=1), name="penalty_game_number_min"
            ),
            models.CheckConstraint(
                condition=models.Q(category__in=PenaltyCategory.values),
                name="penalty_category_valid",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(referee__isnull=True, signed_at__isnull=True)
                    | models.Q(referee__isnull=False, signed_at__isnull=False)
                ),
                name="penalty_signature_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.game_number}: {self.get_category_display()}"

    @property
    def is_signed(self) -> bool:
        return self.signed_at is not None
