"""Publishing to the results service, the hall's side (tournament/publishing): where to send,
and the outbox of public states waiting to be sent.

Only the publisher process (``manage.py publisher``) writes ``Publication`` and
``PublishChange``, in short transactions of its own; a director's "send now" sets one date.
None of these rows belongs to a tournament's data: saving them moves no version.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class PublishingTarget(models.Model):
    """The results service this laptop publishes to, as a director entered it on the page
    "Results service" (one row). The environment (RESULTS_SERVICE_URL, RESULTS_SERVICE_KEY)
    wins over it. The key's secret is stored because every request is signed with it; no
    page shows it again."""

    url = models.URLField(_("address of the results service"), max_length=300, blank=True)
    key = models.CharField(_("publishing key"), max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("results service")
        verbose_name_plural = _("results service")

    def __str__(self) -> str:
        return self.url


class Publication(models.Model):
    """One tournament's state on the way to the results service: the last public state built
    (its sequence number, digest and what it was built from) and what the service has
    accepted, with the last error and the next attempt."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="publication"
    )
    # The sequence number of the newest state recorded (the next one gets sequence + 1).
    sequence = models.PositiveBigIntegerField(default=0)
    digest = models.CharField(max_length=64, blank=True)
    # What that state was built from: the tournament's version, the visible rounds, its
    # series (see tournament/publishing/outbox.py); a pass with the same state builds nothing.
    built_state = models.JSONField(default=list, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)
    # The next moment the clock alone changes what may be shown (a round's delay running out).
    due_at = models.DateTimeField(null=True, blank=True)
    sent_sequence = models.PositiveBigIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    # The snapshot time of the state the service holds, and where the service shows it.
    sent_snapshot_at = models.DateTimeField(null=True, blank=True)
    public_url = models.CharField(max_length=500, blank=True)
    # The last failure: a code (tournament/publishing/status.py says it in words) and a detail.
    last_error = models.CharField(max_length=40, blank=True)
    last_error_detail = models.CharField(max_length=300, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    next_try_at = models.DateTimeField(null=True, blank=True)
    # When the tournament was taken off the service (publishing switched off, or the
    # tournament made private): its last change is the withdrawal; nothing is sent after it.
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("publication")
        verbose_name_plural = _("publications")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.sent_sequence}/{self.sequence}"


class PublishChange(models.Model):
    """A new public state of a tournament, numbered, waiting to be sent (``sent_at`` null) or
    sent. Each is the whole public archive: a newer one supersedes the older ones, whose
    bodies are then dropped; sent ones older than the newest sent are removed."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="publish_changes"
    )
    sequence = models.PositiveBigIntegerField()
    created_at = models.DateTimeField()
    digest = models.CharField(max_length=64)
    body = models.BinaryField(blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("change to publish")
        verbose_name_plural = _("changes to publish")
        ordering = ["tournament", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "sequence"], name="publish_change_sequence_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} #{self.sequence}"


class Withdrawal(models.Model):
    """A deleted tournament's last message to the service: the header-only state that hides
    it there, with the sequence number after the last one recorded. Recorded while the
    tournament row is deleted (it outlives the tournament, its ``Publication`` and its
    changes) and removed when the service has confirmed it."""

    uid = models.UUIDField(unique=True)
    name = models.CharField(max_length=200, blank=True)
    sequence = models.PositiveBigIntegerField()
    created_at = models.DateTimeField()
    body = models.BinaryField()
    last_error = models.CharField(max_length=40, blank=True)
    last_error_detail = models.CharField(max_length=300, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    next_try_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("withdrawal from the results service")
        verbose_name_plural = _("withdrawals from the results service")

    def __str__(self) -> str:
        return f"{self.uid} #{self.sequence}"
