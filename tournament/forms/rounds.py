from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _


class DrawForm(forms.Form):
    all_rounds = forms.BooleanField(label=_("draw all remaining rounds"), required=False)
    seed = forms.IntegerField(
        label=_("seed (optional)"),
        required=False,
        validators=[MinValueValidator(0), MaxValueValidator(2**31 - 1)],
        help_text=_("The same seed and players reproduce the same draw."),
    )


class SwapForm(forms.Form):
    first = forms.IntegerField(label=_("start number"), min_value=1, max_value=99999)
    second = forms.IntegerField(label=_("with start number"), min_value=1, max_value=99999)
