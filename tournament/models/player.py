import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from . import names
from .audit import AuditEvent


class Player(models.Model):
    """A person in the player database, reused across tournaments."""

    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    club = models.CharField(_("club"), max_length=150, blank=True)
    ddv_number = models.CharField(_("DDV member number"), max_length=20, blank=True, db_index=True)
    name_key = models.CharField(max_length=names.NAME_KEY_LENGTH, editable=False, db_index=True)
    # Made by an online registration that no director has accepted yet: only what the
    # registrant typed (name and club, never a DDV member number: that stays on the
    # registration), matched to nobody outside its own tournament (issue 34).
    unverified = models.BooleanField(_("not verified"), default=False)
    # The same player on every laptop and on the results service: kept by
    # an archive's round trip, so a moved or published copy is recognised (tournament/archive).
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(bases=[AuditEvent])

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["last_name", "first_name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["ddv_number"],
                condition=~models.Q(ddv_number=""),
                name="player_ddv_number_unique",
            ),
            models.CheckConstraint(
                condition=~models.Q(last_name=""), name="player_last_name_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs):
        self.name_key = names.name_key(self.first_name, self.last_name)
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def club_key(self) -> str:
        return names.club_key(self.club)
