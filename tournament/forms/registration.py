import re

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from scoring.profiles import CUSTOM, ProfileError, derive

from ..domain.draw import MAX_ROUNDS
from ..models import Tournament

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def no_control_characters(value: str) -> None:
    if _CONTROL.search(value):
        raise ValidationError(_("Control characters are not allowed."), code="control")


PROFILE_ERRORS = {
    "unknown-profile": _("Unknown rule profile “%(key)s”."),
    "unknown-parameter": _("Unknown parameter “%(name)s”."),
    "bad-parameter": _("Impossible value for “%(name)s”: %(value)s."),
    "too-few-games-for-soli": _(
        "%(games)s games at a %(size)s-table leave no room for %(soli)s Pflichtsoli."
    ),
    "deduction-without-maximum": _("A point deduction needs a maximum deduction of at least 1."),
}


# Addresses under /manage/ that a tournament's short name must not hide.
RESERVED_SLUGS = {"new", "referee"}


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "date",
            "venue",
            "rule_profile",
            "custom_base",
            "custom_overrides",
            "planned_rounds",
            "separate_clubs_rounds",
            "is_public",
            "standings_live",
            "tiebreak",
            "projector_seconds",
            "status",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "custom_overrides": forms.Textarea(attrs={"rows": 3}),
        }
        help_texts = {
            "slug": _("Letters, digits and hyphens; used in the address of the public pages."),
            "custom_overrides": _(
                'Only for a custom profile, as JSON, e.g. {"games_per_round_4": 20}.'
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("name", "venue"):
            self.fields[name].validators.append(no_control_characters)
        self.fields["planned_rounds"].validators.append(MaxValueValidator(MAX_ROUNDS))
        self.fields["tiebreak"].required = False  # not chosen: equal totals share the rank
        self.fields["projector_seconds"].required = False  # left empty: as it was

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise ValidationError(
                _("“%(slug)s” is a page of the site; choose another short name."),
                params={"slug": slug},
                code="reserved",
            )
        return slug

    def clean_tiebreak(self):
        return self.cleaned_data.get("tiebreak") or "shared"

    def clean_projector_seconds(self):
        seconds = self.cleaned_data.get("projector_seconds")
        if seconds is None:
            return self.instance.projector_seconds
        return seconds

    def clean(self):
        cleaned = super().clean()
        profile = cleaned.get("rule_profile")
        overrides = cleaned.get("custom_overrides") or {}
        if profile == CUSTOM:
            base = cleaned.get("custom_base")
            if not base:
                self.add_error("custom_base", _("Choose the profile the custom one starts from."))
                return cleaned
            if not isinstance(overrides, dict):
                self.add_error("custom_overrides", _("Enter a JSON object."))
                return cleaned
            try:
                derive(base, overrides)
            except ProfileError as exc:
                self.add_error("custom_overrides", PROFILE_ERRORS[exc.code] % exc.params)
        elif profile:
            cleaned["custom_base"] = ""
            cleaned["custom_overrides"] = {}
        return cleaned


class EntryForm(forms.Form):
    first_name = forms.CharField(label=_("first name"), max_length=100, required=False)
    last_name = forms.CharField(label=_("last name"), max_length=100)
    club = forms.CharField(label=_("club"), max_length=150, required=False)
    ddv_number = forms.CharField(label=_("DDV member number"), max_length=20, required=False)
    team = forms.CharField(label=_("team"), max_length=150, required=False)
    start_number = forms.IntegerField(
        label=_("start number"),
        required=False,
        validators=[MinValueValidator(1), MaxValueValidator(99999)],
        help_text=_("Leave empty for the next free number."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("first_name", "last_name", "club", "ddv_number", "team"):
            self.fields[name].validators.append(no_control_characters)


class ImportUploadForm(forms.Form):
    file = forms.FileField(
        label=_("player list (CSV or XLSX)"),
        help_text=_(
            "First line with column names: Vorname, Nachname (or Name), Verein, DDV-Nr., "
            "Team, Startnummer. Comma or semicolon, UTF-8 or Windows-1252."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.IMPORT_MAX_BYTES:
            raise ValidationError(
                _("The file is larger than %(limit)s MB."),
                params={"limit": settings.IMPORT_MAX_BYTES // (1024 * 1024)},
                code="too-large",
            )
        return upload
