"""Prizes (issue 38): the director's prize categories, in the order that decides which prize a
player takes (one prize per player), the prizes of each category by place, and the design of
the certificates (one for the whole site: the logo is uploaded once).

Who wins what is read in ``tournament.queries.prizes``; the rules are ``scoring.prizes``."""

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .audit import AuditRole
from .tournament import BIRTH_YEAR_VALIDATORS, Sex, Tournament


class Measure(models.TextChoices):
    """What a category ranks by."""

    TOTAL = "total", _("points in the standings")
    BEST_ROUND = "best-round", _("best single round")
    BEST_FIVE_TABLE = "best-five-table", _("best round at a 5-player table")


class Ties(models.TextChoices):
    """Players equal in a category: the prizes of their places are shared (money split,
    places merged), or the tournament's tie-breakers decide."""

    SHARE = "share", _("share the prizes")
    TIEBREAK = "tiebreak", _("the tie-breakers decide")


class PrizeKind(models.TextChoices):
    AMOUNT = "amount", _("amount (EUR)")
    SHARE = "share", _("share of the fee pool (%)")
    GOODS = "goods", _("goods")


class PrizeCategory(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="prize_categories"
    )
    name = models.CharField(_("name"), max_length=100)
    # The director's order: a player who wins in an earlier category takes no prize in a
    # later one (unless that one is "also for winners"). The ceremony runs backwards.
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    measure = models.CharField(
        _("ranked by"), max_length=20, choices=Measure.choices, default=Measure.TOTAL
    )
    ties = models.CharField(_("ties"), max_length=10, choices=Ties.choices, default=Ties.SHARE)
    # Who may win: every condition that is set must hold.
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    born_from = models.PositiveSmallIntegerField(
        _("born in or after"),
        null=True,
        blank=True,
        validators=BIRTH_YEAR_VALIDATORS,
    )
    born_until = models.PositiveSmallIntegerField(
        _("born in or before"),
        null=True,
        blank=True,
        validators=BIRTH_YEAR_VALIDATORS,
    )
    guests_only = models.BooleanField(_("guests only"), default=False)
    newcomers_only = models.BooleanField(_("newcomers only"), default=False)
    # A category whose winners may also win elsewhere and who block nobody (e.g. "best
    # single round" as an extra prize).
    also_for_winners = models.BooleanField(_("also for winners of other prizes"), default=False)
    history = HistoricalRecords(bases=[AuditRole])

    class Meta:
        verbose_name = _("prize category")
        verbose_name_plural = _("prize categories")
        ordering = ["tournament", "order", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(measure__in=Measure.values), name="prize_category_measure"
            ),
            models.CheckConstraint(
                condition=models.Q(ties__in=Ties.values), name="prize_category_ties"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Prize(models.Model):
    category = models.ForeignKey(PrizeCategory, on_delete=models.CASCADE, related_name="prizes")
    place = models.PositiveSmallIntegerField(_("place"), validators=[MinValueValidator(1)])
    kind = models.CharField(
        _("kind"), max_length=10, choices=PrizeKind.choices, default=PrizeKind.AMOUNT
    )
    # AMOUNT: euros; SHARE: percent of the fee pool; GOODS: nothing (the text says it).
    value = models.DecimalField(
        _("value"),
        max_digits=8,
        decimal_places=2,
        default=Decimal("0.00"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    goods = models.CharField(_("goods"), max_length=200, blank=True)
    history = HistoricalRecords(bases=[AuditRole])

    class Meta:
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        ordering = ["category", "place"]
        constraints = [
            models.UniqueConstraint(fields=["category", "place"], name="prize_place_unique"),
            models.CheckConstraint(
                condition=models.Q(kind__in=PrizeKind.values), name="prize_kind_valid"
            ),
            models.CheckConstraint(condition=models.Q(place__gte=1), name="prize_place_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.category} {self.place}."


class Orientation(models.TextChoices):
    PORTRAIT = "portrait", _("A4 portrait")
    LANDSCAPE = "landscape", _("A4 landscape")


class CertificateDesign(models.Model):
    """The one design of the site's certificates (``CertificateDesign.current()``)."""

    title = models.CharField(_("title"), max_length=100, default="Urkunde")
    orientation = models.CharField(
        _("page"), max_length=10, choices=Orientation.choices, default=Orientation.PORTRAIT
    )
    signature_left = models.CharField(_("signature left (name)"), max_length=100, blank=True)
    signature_left_role = models.CharField(_("signature left (role)"), max_length=100, blank=True)
    signature_right = models.CharField(_("signature right (name)"), max_length=100, blank=True)
    signature_right_role = models.CharField(_("signature right (role)"), max_length=100, blank=True)
    # The logo as uploaded (PNG or JPEG, checked on upload), kept in the database so that a
    # backup holds it.
    logo = models.BinaryField(blank=True, default=b"", editable=True)
    logo_type = models.CharField(max_length=30, blank=True)
    # Bumped by every save: the certificate files are keyed by it besides the tournament.
    version = models.PositiveIntegerField(default=0, editable=False)
    changed_at = models.DateTimeField(auto_now=True)
    # Who changed the site-wide design, and what (the logo's bytes are not repeated there:
    # its type says whether there was one).
    history = HistoricalRecords(
        excluded_fields=["logo", "version", "changed_at"], bases=[AuditRole]
    )

    class Meta:
        verbose_name = _("certificate design")
        verbose_name_plural = _("certificate designs")

    def __str__(self) -> str:
        return self.title

    @classmethod
    def current(cls) -> "CertificateDesign":
        design = cls.objects.order_by("pk").first()
        return design if design is not None else cls()
