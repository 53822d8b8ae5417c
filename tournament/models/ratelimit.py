from django.db import models
from django.utils.translation import gettext_lazy as _


class RateBucket(models.Model):
    """A fixed-window counter in the database, so that a limit holds across every server
    process (see :mod:`tournament.base.ratelimit`)."""

    key = models.CharField(max_length=200, unique=True)
    window_start = models.DateTimeField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("rate limit bucket")
        verbose_name_plural = _("rate limit buckets")

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
