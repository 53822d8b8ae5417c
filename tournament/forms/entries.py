from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from ..models import Sex
from ..models.tournament import BIRTH_YEAR_VALIDATORS
from .text import LineField, no_control_characters

__all__ = ["EntryForm", "ImportUploadForm", "no_control_characters"]


class EntryForm(forms.Form):
    first_name = LineField(label=_("first name"), max_length=100, required=False)
    last_name = LineField(label=_("last name"), max_length=100)
    club = LineField(label=_("club"), max_length=150, required=False)
    ddv_number = LineField(label=_("DDV member number"), max_length=20, required=False)
    team = LineField(label=_("team"), max_length=150, required=False)
    start_number = forms.IntegerField(
        label=_("start number"),
        required=False,
        validators=[MinValueValidator(1), MaxValueValidator(99999)],
        help_text=_("Leave empty for the next free number."),
    )
    # Not ticked unless the player said yes (README, "Datenschutz / privacy").
    publish = forms.BooleanField(
        label=_("name and club on the public pages"),
        required=False,
        help_text=_(
            "Only if the player agreed. Without it the public pages, the projector and the "
            "series show “Player <start number>” and no club; your own lists stay complete."
        ),
    )

    # For the prize categories (issue 38): optional, only the office sees them.
    birth_year = forms.IntegerField(
        label=_("year of birth"),
        required=False,
        validators=BIRTH_YEAR_VALIDATORS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        help_text=_("Optional, for the prize categories (seniors, juniors); never public."),
    )
    sex = forms.ChoiceField(
        label=_("sex"), choices=[("", _("not given")), *Sex.choices], required=False
    )
    guest = forms.BooleanField(label=_("guest"), required=False)
    newcomer = forms.BooleanField(label=_("newcomer"), required=False)

    ATTRIBUTES = ("birth_year", "sex", "guest", "newcomer")

    def attributes(self) -> dict:
        """The prize attributes as typed, for ``domain.entries.EntryAttributes``."""
        return {name: self.cleaned_data[name] for name in self.ATTRIBUTES}


class ImportUploadForm(forms.Form):
    file = forms.FileField(
        label=_("player list (CSV or XLSX)"),
        help_text=_(
            "First line with column names: first name, last name (or name), club, DDV number, "
            "team, start number. Comma or semicolon, UTF-8 or Windows-1252."
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
