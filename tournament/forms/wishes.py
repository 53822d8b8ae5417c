"""The seat wishes' form on the players page (issue 39): "Never at one table: 12, 47"."""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .text import LineField

# Start numbers as people type them: "12, 47", "12 47", "12; 47", "12/47".
SEPARATORS = re.compile(r"[\s,;/+&]+")
# Digits 0-9 only: str.isdigit() also takes "²" and "①", which int() refuses.
NUMBER = re.compile(r"[0-9]{1,5}")
MAX_MEMBERS = 20
# The players page shows a message with this tag in the seat wishes' card, where the browser
# lands after a change, not at the top of the page.
MESSAGE_TAG = "seat-wishes"


class ApartGroupForm(forms.Form):
    numbers = forms.CharField(
        label=_("Never at one table (start numbers)"),
        max_length=200,
        error_messages={"required": _("Type the start numbers, e.g. 12, 47.")},
        widget=forms.TextInput(
            attrs={"placeholder": "12, 47", "autocomplete": "off", "inputmode": "text"}
        ),
    )
    note = LineField(
        label=_("note (for the office)"),
        max_length=100,
        required=False,
        help_text=_("E.g. “couple” or “parent and child”; never shown to the players."),
    )

    def clean_numbers(self) -> list[int]:
        parts = [part for part in SEPARATORS.split(self.cleaned_data["numbers"]) if part]
        if not all(NUMBER.fullmatch(part) for part in parts):
            raise ValidationError(
                _("Type start numbers only, separated by commas, e.g. 12, 47."), code="invalid"
            )
        numbers = list(dict.fromkeys(int(part) for part in parts))
        if len(numbers) < 2:
            raise ValidationError(
                _("Never at one table needs at least two different start numbers."),
                code="too-few",
            )
        if len(numbers) > MAX_MEMBERS:
            raise ValidationError(
                _("At most %(max)s players in one group."), params={"max": MAX_MEMBERS}
            )
        return numbers
