from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.profiles import PROFILES

from ..models.tournament import PROFILE_LABELS

POSITIONS = [(str(p), str(p)) for p in range(1, 6)]
ABSAGE_CHOICES = [
    ("", _("none")),
    ("90", _("keine 90")),
    ("60", _("keine 60")),
    ("30", _("keine 30")),
    ("0", _("schwarz")),
]


class GameValueForm(forms.Form):
    """The facts of one game, ticked by a list keeper or referee (Spielwert-Rechner)."""

    profile = forms.ChoiceField(
        label=_("rule profile"),
        choices=[(k, PROFILE_LABELS[k]) for k in PROFILES],
        initial="ddv",
    )
    table_size = forms.TypedChoiceField(
        label=_("players at the table"),
        choices=[("4", "4"), ("5", "5")],
        coerce=int,
        initial="4",
        widget=forms.RadioSelect,
    )
    dealer = forms.TypedChoiceField(
        label=_("dealer (sits out at a 5-table)"),
        choices=POSITIONS,
        coerce=int,
        initial="1",
    )
    kind = forms.ChoiceField(
        label=_("game"),
        choices=[("normal", _("Normal game (incl. Hochzeit with partner)")), ("solo", _("Solo"))],
        initial="normal",
        widget=forms.RadioSelect,
    )
    re = forms.TypedMultipleChoiceField(
        label=_("Re (positions; the soloist in a solo)"),
        choices=POSITIONS,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
    )
    re_eyes = forms.IntegerField(
        label=_("Card points of the Re party"),
        min_value=0,
        max_value=240,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 240}),
    )
    re_no_trick = forms.BooleanField(label=_("Re took no trick"), required=False)
    kontra_no_trick = forms.BooleanField(label=_("Kontra took no trick"), required=False)
    announced_re = forms.BooleanField(label=_("“Re” announced"), required=False)
    announced_kontra = forms.BooleanField(label=_("“Kontra” announced"), required=False)
    absage_re = forms.ChoiceField(
        label=_("Absage of the Re party"), choices=ABSAGE_CHOICES, required=False
    )
    absage_kontra = forms.ChoiceField(
        label=_("Absage of the Kontra party"), choices=ABSAGE_CHOICES, required=False
    )
    sonderpunkte_re = forms.IntegerField(
        label=_("Extra points of the Re party"),
        help_text=_("Doppelkopf, Fuchs caught, Karlchen (not “gegen die Alten”)"),
        min_value=0,
        max_value=12,
        initial=0,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    sonderpunkte_kontra = forms.IntegerField(
        label=_("Extra points of the Kontra party"),
        min_value=0,
        max_value=12,
        initial=0,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def facts(self) -> dict:
        """The cleaned data in the rules engine's facts format."""
        data = self.cleaned_data
        announced = [p for p in ("re", "kontra") if data[f"announced_{p}"]]
        absage = {
            p: (int(data[f"absage_{p}"]) if data[f"absage_{p}"] != "" else None)
            for p in ("re", "kontra")
        }
        return {
            "table_size": data["table_size"],
            "dealer": data["dealer"],
            "kind": data["kind"],
            "re": data["re"],
            "re_eyes": data["re_eyes"],
            "re_no_trick": data["re_no_trick"],
            "kontra_no_trick": data["kontra_no_trick"],
            "announced": announced,
            "absage": absage,
            "sonderpunkte": {
                "re": data["sonderpunkte_re"] or 0,
                "kontra": data["sonderpunkte_kontra"] or 0,
            },
        }
