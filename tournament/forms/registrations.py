"""The public registration form, the change form of the personal link, and "send my link
again". Every field is capped at what the database holds and refuses control characters; the
honeypot field ``website`` is for bots only (people never see it, see site.css ``.hp``)."""

from django import forms
from django.conf import settings
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from ..domain.registrations import Details
from ..models import Registration, Sex, Tournament, TournamentStatus
from ..models.registration import CLUB_MAX, DDV_MAX, FIRST_NAME_MAX, LAST_NAME_MAX, TEAM_MAX
from ..models.tournament import BIRTH_YEAR_VALIDATORS
from ..queries import registrations
from .text import LineField, no_control_characters

EMAIL_MAX = Registration._meta.get_field("email").max_length or 254
HONEYPOT = "website"
# The languages a player can get their e-mails in, each named in itself.
LANGUAGE_NAMES = {"de": "Deutsch", "en": "English"}


def standard_consent() -> str:
    """The consent line of a tournament whose director wrote none, in the active language."""
    # Publication has a tick of its own (``publish``): a consent is given freely only when
    # the registration does not depend on it (GDPR Art. 7(4)).
    return gettext(
        "I agree that my details are stored for this tournament and its results, and my "
        "e-mail address until the tournament is over."
    )


def consent_text(tournament: Tournament) -> str:
    """The consent line the player ticks: the director's own text, or the standard one."""
    return tournament.registration_consent.strip() or standard_consent()


def registration_summary(tournament: Tournament) -> dict | None:
    """What the public tournament page and the start page say about registering: the phase
    (``registrations.NOT_YET``, ``OPEN`` or ``CLOSED``), the free places while it is open (None: no
    limit), the opening and closing times. None when the tournament offers no online
    registration or has begun (nothing to say about registering any more)."""
    phase = registrations.phase(tournament)
    if phase == registrations.OFF:
        return None
    if phase == registrations.CLOSED and (
        tournament.status != TournamentStatus.PLANNED or tournament.rounds.exists()
    ):
        return None
    return {
        "phase": phase,
        "free": registrations.places_free(tournament) if phase == registrations.OPEN else None,
        "opens_at": tournament.registration_opens_at,
        "closes_at": tournament.registration_closes_at,
    }


def _page_language() -> str:
    language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    codes = [code for code, _name in settings.LANGUAGES]
    return language if language in codes else settings.LANGUAGE_CODE


def _language_choices() -> list[tuple[str, str]]:
    return [(code, LANGUAGE_NAMES.get(code, str(name))) for code, name in settings.LANGUAGES]


class LanguageSelect(forms.Select):
    """Each language named in itself, marked as such (``lang``) for screen readers."""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        option["attrs"]["lang"] = value
        return option


class _PlayerFields(forms.Form):
    """What a player tells about themselves, on the form and on the personal link."""

    first_name = LineField(label=_("first name"), max_length=FIRST_NAME_MAX)
    last_name = LineField(label=_("last name"), max_length=LAST_NAME_MAX)
    club = LineField(label=_("club"), max_length=CLUB_MAX, required=False)
    ddv_number = LineField(
        label=_("DDV member number"),
        max_length=DDV_MAX,
        required=False,
        help_text=_("Optional."),
    )
    email = forms.EmailField(
        label=_("e-mail address"),
        max_length=EMAIL_MAX,
        help_text=_("Your personal link comes by e-mail. Nobody else sees the address."),
    )
    team_name = LineField(
        label=_("team"),
        max_length=TEAM_MAX,
        required=False,
        help_text=_("Optional: the name of your team, if you play in one."),
    )
    language = forms.ChoiceField(
        label=_("language of the e-mails"), choices=_language_choices, widget=LanguageSelect
    )
    # Optional, for the prize categories (issue 38): seen by the tournament office only.
    birth_year = forms.IntegerField(
        label=_("year of birth"),
        required=False,
        validators=BIRTH_YEAR_VALIDATORS,
        help_text=_("Optional, only for the prize categories (e.g. seniors); never public."),
    )
    sex = forms.ChoiceField(
        label=_("sex"),
        choices=[("", _("not given")), *Sex.choices],
        required=False,
        help_text=_("Optional, only for the prize categories (e.g. women); never public."),
    )
    # Unticked unless the player ticks it (README, "Datenschutz / privacy").
    publish = forms.BooleanField(
        label=_(
            "Show my name and club on the public pages of this tournament (participants, table "
            "plan, standings, projector, series). Without this tick they show “Player” and my "
            "start number only. I can change this at any time on my personal link."
        ),
        required=False,
    )

    TEXT_FIELDS = ("first_name", "last_name", "club", "ddv_number", "email", "team_name")
    PERSON = (*TEXT_FIELDS, "language", "birth_year", "sex")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "language" not in self.initial:
            self.fields["language"].initial = _page_language()
        self.fields["email"].validators.append(no_control_characters)
        phone_keyboard = {
            "first_name": {"autocomplete": "given-name", "autocapitalize": "words"},
            "last_name": {"autocomplete": "family-name", "autocapitalize": "words"},
            "club": {"autocomplete": "organization", "autocapitalize": "words"},
            "ddv_number": {"autocomplete": "off", "inputmode": "numeric"},
            "email": {"autocomplete": "email", "autocapitalize": "off", "spellcheck": "false"},
            "team_name": {"autocomplete": "off"},
            "birth_year": {"autocomplete": "off", "inputmode": "numeric"},
        }
        for name, attrs in phone_keyboard.items():
            self.fields[name].widget.attrs.update(attrs)

    def person_fields(self) -> list:
        """The bound fields about the player, in the order of the page."""
        return [self[name] for name in self.PERSON]

    def details(self) -> Details:
        data = self.cleaned_data
        return Details(
            first_name=data["first_name"],
            last_name=data["last_name"],
            club=data["club"],
            ddv_number=data["ddv_number"],
            team_name=data["team_name"],
            email=data["email"],
            language=data["language"],
            publish=data["publish"],
            birth_year=data["birth_year"],
            sex=data["sex"],
        )


def _honeypot() -> forms.CharField:
    """The honeypot: off-screen and out of the tab order (site.css ``.hp``), so only a bot
    fills it in."""
    return forms.CharField(
        label=_("Leave this field empty"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"tabindex": "-1", "autocomplete": "off"}),
    )


class RegisterForm(_PlayerFields):
    """The public registration form of a tournament."""

    consent = forms.BooleanField(label="", required=True)
    website = _honeypot()

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.consent_text = consent_text(tournament)
        self.fields["consent"].label = self.consent_text
        self.fields["consent"].error_messages["required"] = gettext(
            "Please tick the consent: without it we cannot take your registration."
        )


def filled_honeypot(data) -> bool:
    """True when the hidden field came back filled in: a bot."""
    return bool(str(data.get(HONEYPOT, "")).strip())


class ChangeForm(_PlayerFields):
    """The player's own change of their registration, on the personal link. Name, club and
    DDV number are shown but locked once the first round is drawn, once a director accepted
    them, or when they are also in other tournaments' results."""

    LOCKED = ("first_name", "last_name", "club", "ddv_number")

    def __init__(
        self,
        *args,
        registration: Registration,
        name_lock: str | None,
        team_locked: bool = False,
        **kwargs,
    ):
        initial = {
            "first_name": registration.first_name,
            "last_name": registration.last_name,
            "club": registration.club,
            "ddv_number": registration.ddv_number,
            "email": registration.email,
            "team_name": registration.team_name,
            "language": registration.language,
            "publish": registration.publish,
            "birth_year": registration.birth_year,
            "sex": registration.sex,
        }
        super().__init__(*args, initial=initial, **kwargs)
        self.locked = name_lock  # why they are locked (see registrations.name_lock), or None
        if self.locked:
            for name in self.LOCKED:
                self.fields[name].disabled = True
                self.fields[name].help_text = ""
        if team_locked:  # the team standings count it from the first round on
            self.fields["team_name"].disabled = True
            self.fields["team_name"].help_text = registrations.TEAM_LOCKED


class ResendForm(forms.Form):
    """ "Send my link again": the e-mail address only."""

    email = forms.EmailField(
        label=_("e-mail address"),
        max_length=EMAIL_MAX,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autocapitalize": "off"}),
    )
    website = _honeypot()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].validators.append(no_control_characters)


class CancelForm(forms.Form):
    """The second step of cancelling: the player ticks that they mean it."""

    confirm = forms.BooleanField(
        label=_("Yes, I cancel my registration."),
        required=True,
        error_messages={"required": _("Please tick the box to confirm the cancellation.")},
    )
