"""Online registration: a player's own registration for a tournament, with a personal link.

A registration keeps what the player typed, their e-mail address and the secret of their
personal link. Once it has a place (confirmed) it is linked to the tournament's
:class:`~tournament.models.Entry`, which carries the start number and everything the day
needs; a registration on the waiting list or awaiting the director's approval has no entry.
The e-mail address and the link are personal data: never in the history, never on a public
page, and deleted after the tournament
(:func:`tournament.domain.personal_data.forget_personal_data`).
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .audit import AuditRole
from .tournament import BIRTH_YEAR_VALIDATORS, Entry, Sex, Tournament


class RegistrationState(models.TextChoices):
    CONFIRMED = "confirmed", _("confirmed")
    PENDING = "pending", _("awaiting approval")
    WAITING = "waiting", _("waiting list")
    CANCELLED = "cancelled", _("cancelled")
    DECLINED = "declined", _("declined")


# The states that hold a place (a pending registration is within the capacity).
HOLDS_PLACE = (RegistrationState.CONFIRMED, RegistrationState.PENDING)
# The states a player or the director can still change.
OPEN_STATES = (*HOLDS_PLACE, RegistrationState.WAITING)


def new_registration_token() -> str:
    """The secret of a personal link: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


# Field lengths of the public form: the database holds no more than this.
FIRST_NAME_MAX, LAST_NAME_MAX, CLUB_MAX, DDV_MAX, TEAM_MAX = 100, 100, 150, 20, 150


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    first_name = models.CharField(_("first name"), max_length=FIRST_NAME_MAX)
    last_name = models.CharField(_("last name"), max_length=LAST_NAME_MAX)
    club = models.CharField(_("club"), max_length=CLUB_MAX, blank=True)
    ddv_number = models.CharField(_("DDV member number"), max_length=DDV_MAX, blank=True)
    team_name = models.CharField(_("team"), max_length=TEAM_MAX, blank=True)
    # Optional, for the prize categories (issue 38): carried to the entry on acceptance,
    # cleared with the personal data.
    birth_year = models.PositiveSmallIntegerField(
        _("year of birth"),
        null=True,
        blank=True,
        validators=BIRTH_YEAR_VALIDATORS,
    )
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    # Empty once the personal data of a finished tournament is deleted.
    email = models.EmailField(_("e-mail address"), blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    # The personal link; None once the personal data is deleted (the link stops working).
    # NULL, not "": unique, and several registrations have none.
    token = models.CharField(  # noqa: DJ001
        max_length=40, unique=True, null=True, default=new_registration_token, editable=False
    )
    state = models.CharField(
        _("state"),
        max_length=12,
        choices=RegistrationState.choices,
        default=RegistrationState.WAITING,
    )
    # The order of registration; the waiting list is the waiting ones in this order (the
    # director can move people by hand, which swaps positions).
    position = models.PositiveIntegerField(_("position"))
    entry = models.OneToOneField(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registration",
        verbose_name=_("entry"),
    )
    # The consent line as the player saw it when they ticked it.
    consent = models.TextField(_("consent"), blank=True)
    # The player's wish to be named on the public pages (a tick of their own, default off);
    # the entry's ``publish`` follows it once the registration has a place.
    publish = models.BooleanField(_("name published"), default=False)
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    personal_data_deleted_at = models.DateTimeField(null=True, blank=True, editable=False)
    history = HistoricalRecords(
        excluded_fields=["email", "token", "created_at", "birth_year", "sex"], bases=[AuditRole]
    )

    class Meta:
        verbose_name = _("online registration")
        verbose_name_plural = _("online registrations")
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "position"], name="registration_position_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(state__in=RegistrationState.values),
                name="registration_state_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def full_name(self) -> str:
        return str(self)
