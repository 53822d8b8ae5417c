"""The players page: correcting an entry, the fast check-in field, merging duplicates."""

from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ..domain.wishes import MAX_TABLE
from ..models import Player
from ..models.names import sort_key
from .entries import EntryForm, no_control_characters

START_NUMBER_VALIDATORS = [MinValueValidator(1), MaxValueValidator(99999)]


class EntryEditForm(EntryForm):
    """The add form's fields, the start number required, the fixed table, and why the entry
    is corrected."""

    # A seat wish (issue 39): the player sits at this table in every new round.
    fixed_table = forms.IntegerField(
        label=_("fixed table"),
        required=False,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_TABLE)],
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": MAX_TABLE}),
        help_text=_(
            "E.g. a wheelchair place by the door: the player sits at this table in every new "
            "round, the others rotate around them. Empty: drawn like everybody."
        ),
    )

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


class _GermanOrder(forms.models.ModelChoiceIterator):
    """The players in German phone-book order (Köhler before Krämer), as the print pack
    lists them: the database's order puts umlauts after z."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        players = sorted(
            self.queryset,
            key=lambda p: (sort_key(p.last_name), sort_key(p.first_name), p.last_name, p.pk),
        )
        for player in players:
            yield self.choice(player)


class PlayerChoiceField(forms.ModelChoiceField):
    """A player by name, club and DDV number: namesakes must be told apart before a merge."""

    iterator = _GermanOrder

    def label_from_instance(self, obj: Player) -> str:
        name = f"{obj.last_name}, {obj.first_name}" if obj.first_name else obj.last_name
        parts = [name]
        if obj.club:
            parts.append(obj.club)
        if obj.ddv_number:
            parts.append(_("DDV %(number)s") % {"number": obj.ddv_number})
        parts.append(f"#{obj.pk}")
        return " · ".join(parts)


class MergeForm(forms.Form):
    keep = PlayerChoiceField(label=_("Keep this player"), queryset=Player.objects.none())
    drop = PlayerChoiceField(
        label=_("Merge away this player (its entries move over, then it is deleted)"),
        queryset=Player.objects.none(),
    )
    reason = forms.CharField(
        label=_("Reason (for the history)"),
        max_length=200,
        validators=[no_control_characters],
    )

    def __init__(self, *args, players: QuerySet[Player], **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("keep", "drop"):
            field = self.fields[name]
            assert isinstance(field, PlayerChoiceField)
            field.queryset = players

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        keep, drop = cleaned.get("keep"), cleaned.get("drop")
        if keep is not None and keep == drop:
            self.add_error("drop", _("Choose two different players."))
        return cleaned
