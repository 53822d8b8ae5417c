"""A document made in the background: a PDF or Excel file of one tournament or series, in
one state of its data and one language (tournament/tasks/documents.py makes and serves them)."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .series import Series
from .tournament import Tournament


class DocumentStatus(models.TextChoices):
    QUEUED = "queued", _("waiting")
    RUNNING = "running", _("being made")
    READY = "ready", _("ready")
    FAILED = "failed", _("failed")


class Document(models.Model):
    kind = models.CharField(max_length=30)
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.CASCADE)
    series = models.ForeignKey(Series, null=True, blank=True, on_delete=models.CASCADE)
    # What else the file depends on besides kind and object: the round and the site's
    # address of a print pack (its QR codes), empty for the others.
    variant = models.CharField(max_length=300, blank=True, default="")
    # The state of the data the file is made from: Tournament.version, or for a series a
    # fingerprint of its version and its tournaments' versions (tournament/tasks/documents.py).
    version = models.CharField(max_length=64)
    language = models.CharField(max_length=10)
    status = models.CharField(
        max_length=10, choices=DocumentStatus.choices, default=DocumentStatus.QUEUED
    )
    file_name = models.CharField(max_length=100, blank=True, default="")
    size = models.PositiveBigIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("document")
        verbose_name_plural = _("documents")
        constraints = [
            # At most one render of the same document: a second request joins the first.
            models.UniqueConstraint(
                fields=["kind", "tournament", "variant", "version", "language"],
                condition=Q(tournament__isnull=False),
                name="document_once_per_tournament_state",
            ),
            models.UniqueConstraint(
                fields=["kind", "series", "variant", "version", "language"],
                condition=Q(series__isnull=False),
                name="document_once_per_series_state",
            ),
            models.CheckConstraint(
                condition=Q(tournament__isnull=True) ^ Q(series__isnull=True),
                name="document_of_tournament_or_series",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.version} {self.language}: {self.status}"
