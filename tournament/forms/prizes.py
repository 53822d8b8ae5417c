"""The prize page's forms (issue 38): a category, a prize, a preset. They clean what was typed
and ask the verbs' checks (``domain.prizes``), so that a duplicate place or shares above
100 % are said next to the form; the verbs check again under the tournament's lock."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ..domain import prizes
from ..errors import DomainError
from ..models import Measure, Prize, PrizeCategory, PrizeKind, Sex, Ties
from ..models.tournament import BIRTH_YEAR_VALIDATORS
from .text import LineField


def _year(label) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        validators=BIRTH_YEAR_VALIDATORS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "year"}),
    )


class CategoryForm(forms.Form):
    name = LineField(label=_("name"), max_length=100)
    measure = forms.ChoiceField(label=_("ranked by"), choices=Measure.choices)
    ties = forms.ChoiceField(label=_("ties"), choices=Ties.choices)
    sex = forms.ChoiceField(
        label=_("sex"),
        choices=[("", _("anybody")), *Sex.choices],
        required=False,
    )
    born_from = _year(_("born in or after"))
    born_until = _year(_("born in or before"))
    guests_only = forms.BooleanField(label=_("guests only"), required=False)
    newcomers_only = forms.BooleanField(label=_("newcomers only"), required=False)
    also_for_winners = forms.BooleanField(
        label=_("also for winners of other prizes"),
        required=False,
        help_text=_("An extra prize: its winners keep their other prize and block nobody."),
    )

    @classmethod
    def of(cls, category: PrizeCategory, **kwargs) -> CategoryForm:
        initial = {name: getattr(category, name) for name in prizes.CATEGORY_FIELDS}
        return cls(initial=initial, **kwargs)

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            try:
                prizes.check_category(self.data_of())
            except DomainError as exc:
                raise ValidationError(exc.message) from None
        return cleaned

    def data_of(self) -> prizes.CategoryData:
        return prizes.CategoryData(
            **{name: self.cleaned_data[name] for name in prizes.CATEGORY_FIELDS}
        )


class PrizeForm(forms.Form):
    place = forms.IntegerField(
        label=_("place"),
        min_value=1,
        max_value=999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "place"}),
    )
    kind = forms.ChoiceField(label=_("kind"), choices=PrizeKind.choices)
    value = forms.DecimalField(
        label=_("amount (EUR) or share (%)"),
        required=False,
        max_digits=8,
        decimal_places=2,
        min_value=Decimal("0"),
        # A text field in the reader's language, like the entry fee on the settings page: a
        # German "12,50" is 12.50 (a number field drops the comma in some browsers: 1250).
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "class": "money", "size": 8}),
    )
    goods = LineField(label=_("goods"), max_length=200, required=False)

    def __init__(self, *args, category: PrizeCategory, prize: Prize | None = None, **kwargs):
        if prize is not None and "initial" not in kwargs:
            kwargs["initial"] = {name: getattr(prize, name) for name in prizes.PRIZE_FIELDS}
            if prize.kind == PrizeKind.GOODS:
                kwargs["initial"]["value"] = None  # goods have no value: not "0,00"
        super().__init__(*args, **kwargs)
        self.category, self.prize = category, prize
        self.fields["value"].error_messages["min_value"] = _("The value cannot be negative.")

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            try:
                prizes.check_prize(self.category, self.data_of(), self.prize)
            except DomainError as exc:
                raise ValidationError(exc.message) from None
        return cleaned

    def data_of(self) -> prizes.PrizeData:
        data = self.cleaned_data
        return prizes.PrizeData(
            place=data["place"],
            kind=data["kind"],
            value=data["value"] if data["value"] is not None else Decimal("0"),
            goods=data["goods"],
        )


class PresetForm(forms.Form):
    preset = forms.ChoiceField(choices=[(key, key) for key in prizes.PRESETS])
    born_until = _year(_("seniors: born in or before"))
