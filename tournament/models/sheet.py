from collections.abc import Iterable

from django.db import models
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.kinds import Kind

from .audit import AuditRole, stamp
from .round import Table

# What people read for each kind of row (scoring.kinds names them by letter): the keeper
# page, the desk and print-pack legends, the game form and the exports all use these words.
KIND_LABELS = {
    Kind.NORMAL: _("normal game"),
    Kind.PFLICHTSOLO: _("Pflichtsolo"),
    Kind.VORGEFUEHRT: _("vorgeführtes Pflichtsolo"),
    Kind.LUSTSOLO: _("Lustsolo"),
    Kind.HOCHZEIT: _("Hochzeit that became a solo"),
    Kind.STILLE_HOCHZEIT: _("stille Hochzeit"),
    Kind.PENALTY: _("penalty"),
}


class GameKind(models.TextChoices):
    """The games of :class:`scoring.kinds.Kind` as stored: each member has the name of its
    kind and that name in lower case as its value (the values predate the letters)."""

    NORMAL = "normal", KIND_LABELS[Kind.NORMAL]
    PFLICHTSOLO = "pflichtsolo", KIND_LABELS[Kind.PFLICHTSOLO]
    VORGEFUEHRT = "vorgefuehrt", KIND_LABELS[Kind.VORGEFUEHRT]
    LUSTSOLO = "lustsolo", KIND_LABELS[Kind.LUSTSOLO]
    HOCHZEIT = "hochzeit", KIND_LABELS[Kind.HOCHZEIT]
    STILLE_HOCHZEIT = "stille_hochzeit", KIND_LABELS[Kind.STILLE_HOCHZEIT]

    @property
    def scoring(self) -> Kind:
        return Kind[self.name]

    @classmethod
    def of(cls, kind: Kind) -> "GameKind":
        """The stored kind of a game; a penalty row is no game and raises KeyError."""
        return cls[kind.name]


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
    # What happened in the game (scoring.game.facts_dict: parties, eyes, announcements,
    # Absagen) when the keeper took the row from the Spielwert-Rechner; None for a row typed
    # or entered from paper. Kept only while the row is what the facts give (sheets/verbs.py).
    facts = models.JSONField(_("game facts"), null=True, blank=True, default=None)
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
        values = [self.p1, self.p2, self.p3, self.p4, self.p5][: self.table.size]
        return [v for v in values if v is not None]  # p5 is empty at a 4-table only


class SheetStatus(models.TextChoices):
    OPEN = "open", _("open")
    SUBMITTED = "submitted", _("submitted")
    CONFIRMED = "confirmed", _("confirmed")


class Sheet(models.Model):
    """The Spielliste of one table in one round as a whole: its workflow (open, submitted,
    confirmed, by whom) and the end of its playing time. One per table, made with the table
    and keyed by it; its rows are the table's :class:`Game` rows. Changed only through
    ``tournament.sheets.verbs``."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="sheet"
    )
    status = models.CharField(
        _("sheet"), max_length=10, choices=SheetStatus.choices, default=SheetStatus.OPEN
    )
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    submitted_by = models.CharField(_("submitted by"), max_length=100, blank=True)
    # The list keeper's start number: the confirmation must come from another player.
    submitted_start_number = models.PositiveIntegerField(null=True, blank=True, editable=False)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    confirmed_by = models.CharField(_("confirmed by"), max_length=100, blank=True)
    # The office changed the sheet after it had been confirmed: in a running round it goes
    # back to "submitted" to be confirmed again; in a closed round it stays confirmed. Either
    # way the board and the desk show it until a new confirmation.
    changed_after_confirmation = models.BooleanField(_("changed after confirmation"), default=False)
    # The end of its playing time (TSR 8.5.1, 8.6).
    extra_minutes = models.PositiveSmallIntegerField(_("extra time (minutes)"), default=0)
    extra_reason = models.CharField(_("reason for the extra time"), max_length=200, blank=True)
    time_limit_from = models.PositiveSmallIntegerField(
        _("first game after the time limit"), null=True, blank=True
    )
    struck_games = models.PositiveSmallIntegerField(_("struck games"), default=0)
    history = HistoricalRecords(bases=[AuditRole])

    class Meta:
        verbose_name = _("sheet")
        verbose_name_plural = _("sheets")
        ordering = ["table"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=SheetStatus.values), name="sheet_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(time_limit_from__isnull=True) | models.Q(time_limit_from__gte=1),
                name="sheet_time_limit_from_min",
            ),
        ]

    def __str__(self) -> str:
        return str(self.table)


@receiver(post_save, sender=Table)
def give_sheet(sender, instance: Table, created: bool, raw: bool, **kwargs) -> None:
    """Every table has its sheet from the start (bulk writes, like the draw's, add it
    themselves; a fixture brings its own). The sheet's first history record names the
    table's actor."""
    if created and not raw:
        actor = getattr(instance, "_history_user", None)
        stamp(Sheet(table=instance), actor, role=getattr(instance, "_history_role", "")).save()


def legend(kinds: Iterable[Kind] = Kind) -> str:
    """The letters with their meaning, “N normal game, P Pflichtsolo, …”, for the legends
    of the desk grid and the printed sheet."""
    return ", ".join(f"{kind.value} {KIND_LABELS[kind]}" for kind in kinds)
