"""The forms of the table tablets: the director's new pairing code, the device's pairing."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..domain.devices import MAX_TABLE_NUMBER
from .text import LineField


class NewPairingForm(forms.Form):
    table_number = forms.IntegerField(
        label=_("Table"), min_value=1, max_value=MAX_TABLE_NUMBER, widget=forms.NumberInput()
    )
    label = LineField(
        label=_("Name of the device (optional)"),
        max_length=60,
        required=False,
        help_text=_("So that you know it again in the list, e.g. “Tablet 3, blue cover”."),
    )


class PairingForm(forms.Form):
    code = forms.CharField(
        label=_("Pairing code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "placeholder": "K7QM-4XPD",
            }
        ),
    )
