"""The series form: name, scoring method and its parameters, tie-breakers in order, and the
tournaments that belong to the series."""

from __future__ import annotations

import re
from typing import cast

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from ..models import Series, SeriesMethod, SeriesTiebreak, Tournament
from ..models.audit import DIRECTOR_ACCOUNTS
from .text import no_control_characters, no_control_characters_except_line_breaks
from .tournaments import slug_from_name

# Addresses under /manage/series/ that a series' short name must not hide.
RESERVED_SERIES_SLUGS = {"new"}
# How many tie-breakers the director may list, one select each.
TIEBREAK_STEPS = 3
_POINTS = re.compile(r"\s*\d{1,4}\s*(,\s*\d{1,4}\s*)*,?\s*")


def addable_tournaments(user, series: Series | None = None):
    """The tournaments ``user`` may put into a series: their own, the public ones, and those
    already in it (another director's private tournament stays out of sight)."""
    from ..permissions import managed_tournaments

    mine = managed_tournaments(user).values("pk")
    condition = Q(pk__in=mine) | Q(is_public=True)
    if series is not None and series.pk:
        condition |= Q(series=series)
    chosen = Tournament.objects.filter(condition).distinct().select_related("club")
    return chosen.order_by("-date", "name")


class TournamentChoice(forms.ModelMultipleChoiceField):
    """Tournaments to tick, each with its date (two "Monatsturnier" are told apart)."""

    def label_from_instance(self, obj) -> str:
        when = date_format(obj.date, "SHORT_DATE_FORMAT")
        # On the results service: several clubs' tournaments, told apart by their club.
        return f"{obj.name} ({when}, {obj.club})" if obj.club_id else f"{obj.name} ({when})"


class SeriesForm(forms.ModelForm):
    tournaments = TournamentChoice(
        label=_("tournaments"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only closed rounds count; a tournament still running counts as far as it is."),
    )

    directors = forms.ModelMultipleChoiceField(
        label=_("directors of the series"),
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("They may change the series. You stay one of them."),
    )

    class Meta:
        model = Series
        fields = [
            "name",
            "slug",
            "description",
            "is_public",
            "method",
            "best_of",
            "min_rounds",
            "window_months",
            "placement_points",
        ]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        people = cast(forms.ModelMultipleChoiceField, self.fields["directors"])
        people.queryset = (
            get_user_model()
            .objects.filter(is_active=True)
            .filter(DIRECTOR_ACCOUNTS)
            .exclude(pk=user.pk)
            .distinct()
            .order_by("username")
        )
        if self.instance.pk:
            people.initial = list(self.instance.directors.exclude(pk=user.pk))
        self.fields["name"].validators.append(no_control_characters)
        self.fields["description"].validators.append(no_control_characters_except_line_breaks)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Left empty: made from the name.")
        choice = cast(TournamentChoice, self.fields["tournaments"])
        choice.queryset = addable_tournaments(user, self.instance)
        if self.instance.pk:
            self.fields["tournaments"].initial = list(self.instance.tournaments.all())
        rules = self.instance.tiebreaks
        choices = [("", _("—")), *SeriesTiebreak.choices]
        for step in range(TIEBREAK_STEPS):
            label = _("equal values: first") if step == 0 else _("then")
            self.fields[f"tiebreak_{step}"] = forms.ChoiceField(
                label=label,
                choices=choices,
                required=False,
                initial=rules[step] if step < len(rules) else "",
                help_text=_("Nothing chosen: equal values share the rank.") if step == 0 else "",
            )

    def tiebreak_fields(self):
        return [self[f"tiebreak_{step}"] for step in range(TIEBREAK_STEPS)]

    def general_fields(self):
        return [self[name] for name in self.Meta.fields]

    def clean_slug(self):
        slug = self.cleaned_data.get("slug")
        if not slug and self.instance.pk:
            return self.instance.slug  # a saved series keeps its address
        if not slug:  # made from the name, "-2", "-3" … where another series has it
            base = slug_from_name(self.cleaned_data.get("name") or "")
            slug, number = base, 1
            while slug in RESERVED_SERIES_SLUGS or self._taken(slug):
                number += 1
                slug = f"{base}-{number}"
            return slug
        if slug in RESERVED_SERIES_SLUGS:
            raise ValidationError(
                _("“%(slug)s” is a page of the site; choose another short name."),
                params={"slug": slug},
            )
        if self._taken(slug):
            raise ValidationError(
                _("Another series has the short name “%(slug)s”."), params={"slug": slug}
            )
        return slug

    def _taken(self, slug: str) -> bool:
        return Series.objects.filter(slug=slug).exclude(pk=self.instance.pk).exists()

    def clean_placement_points(self):
        text = self.cleaned_data.get("placement_points", "").strip()
        # "20, 18,5" is a decimal comma, not three places: a list either puts a space after
        # every comma or after none.
        spaced = {", " in text, bool(re.search(r",\S", text))}
        if text and (not _POINTS.fullmatch(text) or spaced == {True}):
            raise ValidationError(
                _("Write the points as whole numbers separated by commas, e.g. 20, 18, 16.")
            )
        points = [int(part) for part in text.split(",") if part.strip()]
        if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
            raise ValidationError(_("A better place cannot get fewer points than a worse one."))
        return ", ".join(str(p) for p in points)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        method = data.get("method")
        if method == SeriesMethod.BEST and not data.get("best_of"):
            self.add_error("best_of", _("Say how many tournaments count."))
        if (
            method == SeriesMethod.PLACEMENT
            and not data.get("placement_points")
            and "placement_points" not in self.errors
        ):
            self.add_error("placement_points", _("Give the points for the places."))
        rules = [data.get(f"tiebreak_{step}") for step in range(TIEBREAK_STEPS)]
        chosen = [rule for rule in rules if rule]
        if len(set(chosen)) != len(chosen):
            self.add_error("tiebreak_1", _("Each tie-breaker once, please."))
        data["tiebreak"] = ",".join(chosen)
        return data

    def save(self, commit=True):
        """The series as changed, not saved: ``domain.series.save_series`` saves it with
        its tournaments and names who did it."""
        if commit:
            raise ValueError("save through domain.series.save_series")
        series = super().save(commit=False)
        series.tiebreak = self.cleaned_data["tiebreak"]
        return series
