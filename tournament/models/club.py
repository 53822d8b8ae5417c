"""The results service's clubs: who may publish tournaments to it (tournament/service).

A club publishes with a key (``kd1.<key id>.<secret>``, tournament/publishing/protocol.py);
each tournament it publishes becomes a replica (``Tournament.club`` set). The service keeps the
secret itself, because checking a request's HMAC needs it; the admin and the ``club`` command
show it once, when the key is made, and never again.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("short name (URL)"), max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class PublishingKeyQuerySet(models.QuerySet["PublishingKey"]):
    def usable(self) -> "PublishingKeyQuerySet":
        return self.filter(revoked_at__isnull=True)


class PublishingKey(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="keys", verbose_name=_("club")
    )
    key_id = models.CharField(_("key id"), max_length=32, unique=True)
    secret = models.CharField(max_length=128, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    objects = PublishingKeyQuerySet.as_manager()

    class Meta:
        verbose_name = _("publishing key")
        verbose_name_plural = _("publishing keys")
        ordering = ["club", "-created_at", "pk"]

    def __str__(self) -> str:
        return self.key_id


class PlayerOrigin(models.Model):
    """Which player of the service a club's player (its uid on the club's laptops) is.

    Players are one person across clubs only where their DDV member number matches, or where a
    service administrator merged them (the merge moves these rows along, so that the next
    publication keeps it)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="player_origins")
    uid = models.UUIDField()
    player = models.ForeignKey(
        "tournament.Player", on_delete=models.CASCADE, related_name="origins"
    )

    class Meta:
        verbose_name = _("player's origin")
        verbose_name_plural = _("players' origins")
        constraints = [
            models.UniqueConstraint(fields=["club", "uid"], name="player_origin_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.club_id}:{self.uid}"
