from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .audit import AuditRole
from .round import Table


class GameKind(models.TextChoices):
    NORMAL = "normal", _("normal game")
    PFLICHTSOLO = "pflichtsolo", _("Pflichtsolo")
    VORGEFUEHRT = "vorgefuehrt", _("vorgeführtes Pflichtsolo")
    LUSTSOLO = "lustsolo", _("Lustsolo")
    HOCHZEIT = "hochzeit", _("Hochzeit that became a solo")
    STILLE_HOCHZEIT = "stille_hochzeit", _("stille Hochzeit")


class Game(models.Model):
    """One row of a table's Spielliste: the points of each position in one game.

    ``version`` grows with every change so that two people editing the same row cannot
    overwrite each other unnoticed (optimistic locking).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    kind = models.CharField(_("kind"), max_length=16, choices=GameKind.choices)
    soloist_position = models.PositiveSmallIntegerField(_("soloist"), null=True, blank=True)
    p1 = models.IntegerField()
    p2 = models.IntegerField()
    p3 = models.IntegerField()
    p4 = models.IntegerField()
    p5 = models.IntegerField(null=True, blank=True)
    # Made by the client that entered the row: the same submission sent twice (a retry on
    # a shaky connection) finds the row instead of storing a second one.
    client_id = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(excluded_fields=["updated_at"], bases=[AuditRole])

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="game_number_min"),
            models.CheckConstraint(
                condition=models.Q(kind__in=GameKind.values), name="game_kind_valid"
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind=GameKind.NORMAL, soloist_position__isnull=True)
                    | (
                        ~models.Q(kind=GameKind.NORMAL)
                        & models.Q(
                            soloist_position__isnull=False,
                            soloist_position__gte=1,
                            soloist_position__lte=5,
                        )
                    )
                ),
                name="game_soloist_matches_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"

    @property
    def points(self) -> list[int]:
        values = [self.p1, self.p2, self.p3, self.p4, self.p5]
        return values[: self.table.size]
