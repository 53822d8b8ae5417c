"""A series: tournaments ranked together — the club championship over a year, a regional
cup over several venues, a ranking list by average per round.

The figures are never stored: ``tournament.queries.series`` works them out from the closed
rounds of the member tournaments whenever they are shown, so that a corrected sheet, a
late penalty or a merge of two players in the player database reaches every series at once.
"""

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .audit import AuditRole
from .tournament import SLUG_MAX, KeepsVersion, Tournament, TournamentQuerySet


class SeriesMethod(models.TextChoices):
    SUM = "sum", _("sum of points over all tournaments")
    BEST = "best", _("sum of the best tournaments")
    AVERAGE = "average", _("average per round played")
    PLACEMENT = "placement", _("placement points")


class SeriesTiebreak(models.TextChoices):
    """What decides between equal values, in the order the director lists them."""

    ROUNDS = "rounds", _("more rounds played")
    TOURNAMENTS = "tournaments", _("more tournaments played")
    BEST_RESULT = "best-result", _("better best tournament")
    BEST_PLACE = "best-place", _("better best placing")


class Series(KeepsVersion, models.Model):
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("short name (URL)"), max_length=SLUG_MAX, unique=True)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    is_public = models.BooleanField(
        _("public"),
        default=False,
        help_text=_(
            "The series page for everybody, with the public tournaments of the series; "
            "private tournaments count only on your page."
        ),
    )
    tournaments = models.ManyToManyField(
        Tournament, related_name="series", blank=True, verbose_name=_("tournaments")
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="directed_series",
        blank=True,
        verbose_name=_("directors"),
    )
    method = models.CharField(
        _("scoring"), max_length=12, choices=SeriesMethod.choices, default=SeriesMethod.SUM
    )
    best_of = models.PositiveSmallIntegerField(
        _("best tournaments counted"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_("For “sum of the best tournaments”: how many of a player’s results count."),
    )
    min_rounds = models.PositiveSmallIntegerField(
        _("rounds needed to be ranked"),
        default=0,
        validators=[MaxValueValidator(999)],
        help_text=_("Players with fewer rounds are listed apart, not ranked (0: everybody)."),
    )
    window_months = models.PositiveSmallIntegerField(
        _("time window (months)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
        help_text=_(
            "Only tournaments of the last this many months count (empty: all). "
            "The DDV ranking list uses 24 months."
        ),
    )
    placement_points = models.CharField(
        _("placement points"),
        max_length=300,
        blank=True,
        help_text=_(
            "For “placement points”: the points for 1st, 2nd, 3rd … place, separated by "
            "commas, e.g. 20, 18, 16, 15. Places further down get none; equal places share."
        ),
    )
    tiebreak = models.CharField(
        _("equal values"),
        max_length=100,
        blank=True,
        help_text=_(
            "What decides between equal values, in this order; nothing: the rank is shared."
        ),
    )
    # The same series on every laptop and on the results service: kept by
    # an archive's round trip, so a moved or published copy is recognised (tournament/archive).
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # On the results service: the club whose hall publishes this series (tournament/service);
    # empty for a series made on the service itself, e.g. a regional ranking across clubs.
    club = models.ForeignKey(
        "tournament.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="series",
        verbose_name=_("published by club"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)  # a saved change shows on the public pages
    # Bumped when the series' settings or tournaments change (tournament/base/versions.py).
    version = models.PositiveBigIntegerField(default=0, editable=False)
    # Who changed the scoring or the tournaments, and when: the table's history.
    history = HistoricalRecords(
        excluded_fields=["created_at", "changed_at", "version"],
        m2m_fields=["tournaments", "directors"],
        bases=[AuditRole],
    )

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(method__in=SeriesMethod.values), name="series_method_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series-public", args=[self.slug])

    def counted_tournaments(self, *, public_only: bool) -> TournamentQuerySet:
        """The tournaments whose results the series' table counts, as they are now.

        The public pages and files (``public_only``) count the public ones. The pages and
        files of the series' own directors count those too, and the private ones directed by
        one of the series' directors (their own tournament not published yet). A private
        tournament of anyone else counts nowhere: a series that took it in while it was
        public shows nothing of it once its director made it private (issue 34)."""
        public = models.Q(is_public=True)
        if public_only:
            return self.tournaments.filter(public)
        theirs = Tournament.objects.filter(directors__in=self.directors.all()).values("pk")
        return self.tournaments.filter(public | models.Q(pk__in=theirs))

    @property
    def tiebreaks(self) -> list[str]:
        return [rule for rule in self.tiebreak.split(",") if rule in SeriesTiebreak.values]

    @property
    def points_table(self) -> list[int]:
        """The placement points as numbers (the form refuses anything else)."""
        return [
            int(part) for part in self.placement_points.replace(";", ",").split(",") if part.strip()
        ]
