from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.errors import InvalidFacts
from scoring.game import evaluate, facts_dict, parse_facts
from scoring.profiles import PROFILES, RuleProfile, get_profile

from ..models.tournament import PROFILE_LABELS, Tournament
from ..wording.findings import invalid_facts_message, rule_reference

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

    def calculate(self, profile: RuleProfile) -> tuple[dict[str, Any] | None, str | None]:
        """(the calculation, None) or (None, why the facts cannot be scored); (None, None)
        while the form is incomplete."""
        if not self.is_valid():
            return None, None
        raw = self.facts()
        try:
            facts = parse_facts(raw, profile.cards)
            result = evaluate(profile, facts)
        except InvalidFacts as exc:
            return None, invalid_facts_message(exc.code, exc.params)
        row = [
            {"position": p, "points": v, "sits": p == facts.sitter, "re": p in facts.re}
            for p, v in enumerate(result.points, start=1)
        ]
        solo = facts.kind == "solo"
        return {
            "result": result,
            "row": row,
            "solo": solo,
            "soloist": facts.re[0] if solo and facts.re else None,
            "points": list(result.points),
            "facts": facts_dict(facts),  # stored with the game when its row is used
            # An Absage without the party's own "Re"/"Kontra" includes it (TSR 6.4.3).
            "rule": rule_reference("skipped-levels", profile.key),
            "implied": [
                p.capitalize()
                for p in ("re", "kontra")
                if p in facts.announced - set(raw["announced"])
            ],
        }, None


def calculator_context(
    query: Mapping[str, str],
    tournament: Tournament | None = None,
    *,
    initial: dict[str, Any] | None = None,
    take: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None,
    panel: bool = False,
) -> dict[str, Any]:
    """What the Spielwert-Rechner shows for the query ``query``: the tournament's rule profile
    (or a profile to choose), ``initial`` presetting the facts (e.g. table size and dealer
    from a list keeper's table) and ``take(calculation)`` giving what the "use it" button puts
    into the keeper's game form. Shared by the public calculator and the keeper's panel."""
    form = GameValueForm(query if "re_eyes" in query else None, initial=initial)
    if panel and initial and initial.get("table_size") == 4:
        # A list keeper's 4-table has no position 5 to tick.
        for name in ("re", "dealer"):
            field = form.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = POSITIONS[:4]
    if tournament is not None:
        form.fields.pop("profile")
        profile = tournament.profile
    else:
        key = form.data.get("profile", "ddv") if form.is_bound else "ddv"
        profile = get_profile(key if key in PROFILES else "ddv")
    calculation, error = form.calculate(profile) if form.is_bound else (None, None)
    return {
        "form": form,
        "tournament": tournament,
        "profile": profile,
        "calculation": calculation,
        "error": error,
        "panel": panel,
        "take": take(calculation) if take and calculation else None,
    }


def calculator_template(htmx_target: str | None, *, htmx: bool, panel: bool) -> str:
    """The whole page, the keeper's panel, or only the result for an HTMX update."""
    if panel and htmx_target == "calculator-panel":
        return "tournament/sheet/_calculator_panel.html"
    if htmx:
        return "tournament/sheet/_calculator_result.html"
    return "tournament/calculator.html"
