"""The players page: correcting an entry, the fast check-in field, merging duplicates."""

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from .registration import EntryForm, no_control_characters

START_NUMBER_VALIDATORS = [MinValueValidator(1), MaxValueValidator(99999)]


class EntryEditForm(EntryForm):
    """The add form's fields, the start number required, and why the entry is corrected."""

    reason = forms.CharField(
        label=_("Reason (for the history)"),
        max_length=200,
        required=False,
        validators=[no_control_characters],
    )

    def __init__(self, *args, number_locked: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        number = self.fields["start_number"]
        number.required = True
        number.help_text = ""
        if number_locked:
            number.disabled = True
            number.help_text = _("Fixed since the first round was drawn.")


class QuickCheckinForm(forms.Form):
    number = forms.IntegerField(
        label=_("Check in by start number"),
        validators=START_NUMBER_VALIDATORS,
        error_messages={
            "required": _("Type a start number."),
            "invalid": _("Type a start number (digits only)."),
        },
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "size": 6, "maxlength": 5}
        ),
    )


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(label=_("Keep this player"), queryset=None)
    drop = forms.ModelChoiceField(
        label=_("Merge away this player (its entries move over, then it is deleted)"), queryset=None
    )
    reason = forms.CharField(
        label=_("Reason (for the history)"),
        max_length=200,
        validators=[no_control_characters],
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("keep", "drop"):
            self.fields[name].queryset = players
            self.fields[name].label_from_instance = _player_label

    def clean(self):
        cleaned = super().clean()
        keep, drop = cleaned.get("keep"), cleaned.get("drop")
        if keep is not None and keep == drop:
            self.add_error("drop", _("Choose two different players."))
        return cleaned


def _player_label(player) -> str:
    parts = [f"{player.last_name}, {player.first_name}" if player.first_name else player.last_name]
    if player.club:
        parts.append(player.club)
    if player.ddv_number:
        parts.append(_("DDV %(number)s") % {"number": player.ddv_number})
    parts.append(f"#{player.pk}")
    return " · ".join(parts)
