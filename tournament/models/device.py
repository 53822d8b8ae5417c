"""A tablet that stays at its table (issue 35): a device paired once with a table number of a
tournament follows that table from round to round (tournament/web/devices.py).

Neither secret is stored: a pairing code (short, shown on the director's page, valid for a
few minutes and once) and the device's own token (long, in the device's cookie) are kept as
their SHA-256 hashes only, so a copy of the database pairs nobody."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .audit import AuditRole
from .tournament import Tournament


class TableDevice(models.Model):
    """One device for one table number: pending while its pairing code waits (``code_hash``),
    paired once a device gave the code (``token_hash``), revoked by the director for good."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="devices")
    table_number = models.PositiveSmallIntegerField(_("table"))
    label = models.CharField(_("name"), max_length=60, blank=True)
    code_hash = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    code_expires_at = models.DateTimeField(_("code valid until"), null=True, blank=True)
    # NULL until paired: unique, and many pending rows have none yet.
    token_hash = models.CharField(max_length=64, null=True, unique=True, editable=False)  # noqa: DJ001
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    paired_at = models.DateTimeField(_("paired"), null=True, blank=True)
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords(
        excluded_fields=["code_hash", "token_hash", "last_seen_at"], bases=[AuditRole]
    )

    class Meta:
        verbose_name = _("table device")
        verbose_name_plural = _("table devices")
        ordering = ["tournament", "table_number", "created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_number__gte=1), name="device_table_number_min"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} / {self.table_number}: {self.label or self.pk}"

    @property
    def is_paired(self) -> bool:
        return self.token_hash is not None and self.revoked_at is None
