"""The tournament form: name and short name, date, rounds, the rule profile and, for a custom
profile, one field per parameter of the rule profile; online registration, entry fee and
check-in by personal link."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from scoring.profiles import (
    _INT_RANGES,
    CUSTOM,
    PARAMETER_NAMES,
    PROFILES,
    ProfileError,
    RuleProfile,
    Scoring,
    UnsportsmanlikeSanction,
    derive,
)

from ..domain.draw import MAX_DRAW_PLAYERS, MAX_ROUNDS
from ..models import Tournament
from ..models.tournament import PUBLISH_DELAY_MAX, SLUG_MAX, profile_base
from ..wording.profile_notes import profile_notes
from .registrations import standard_consent
from .text import no_control_characters, no_control_characters_except_line_breaks

PROFILE_ERRORS = {
    "unknown-profile": _("Unknown rule profile “%(key)s”."),
    "unknown-parameter": _("Unknown parameter “%(name)s”."),
    "bad-parameter": _("Impossible value for “%(name)s”: %(value)s."),
    "too-few-games-for-soli": _(
        "%(games)s games at a %(size)s-table leave no room for %(soli)s Pflichtsoli."
    ),
    "deduction-without-maximum": _("A point deduction needs a maximum deduction of at least 1."),
}

# Addresses under /manage/ that a tournament's short name must not hide.
RESERVED_SLUGS = {"new", "referee", "series", "results-service", "certificates"}

# The parameters of a custom profile, in the order of the form: label and help text. Every
# parameter of scoring.profiles.RuleProfile (PARAMETER_NAMES: not its key, nor not_in_text,
# which a custom profile takes from its base) has a field.
PARAMETERS = {
    "cards": (_("cards in the pack"), _("48 with the nines, 40 without.")),
    "games_per_round_4": (_("games per round at a 4-table"), ""),
    "games_per_round_5": (_("games per round at a 5-table"), ""),
    "playing_minutes_4": (_("playing time at a 4-table (minutes)"), ""),
    "playing_minutes_5": (_("playing time at a 5-table (minutes)"), ""),
    "pflichtsoli_per_round": (_("Pflichtsoli per player and round"), ""),
    "pflichtsolo_dealer_repeats": (
        _("the dealer deals again after a Pflichtsolo"),
        _("The game after a Pflichtsolo is dealt by the same player."),
    ),
    "vorgefuehrt_dealer_repeats": (
        _("the dealer deals again after a vorgeführtes Pflichtsolo"),
        "",
    ),
    "lustsolo_only_after_pflichtsolo": (
        _("a Lustsolo only after the player's own Pflichtsolo"),
        "",
    ),
    "scoring": (_("scoring"), ""),
    "even_odd_rule_4": (
        _("even/odd rule at 4-tables"),
        _("The values of a row are all even or all odd; the sheet check warns otherwise."),
    ),
    "sanctions": (_("sanctions for unsportsmanlike conduct"), ""),
    "max_deduction": (
        _("maximum point deduction"),
        _("0 when the profile has no point deduction."),
    ),
    "decided_game_extra_penalty": (
        _("extra penalty for a violation in an already decided game"),
        "",
    ),
    "vorfuehren_sitter_passes_deal": (
        _("a dealer who sits out passes the deal to play a vorgeführtes Pflichtsolo"),
        _(
            "At a 5-table the dealer sits out; if he alone still owes his Pflichtsolo when it "
            "must be vorgeführt, his left neighbour deals."
        ),
    ),
    "max_plausible_normal": (
        _("warn above this value of a normal game"),
        _("A higher value is probably a typo; the sheet check asks about it."),
    ),
    "max_plausible_solo": (
        _("warn above this value of a solo"),
        _("A higher value is probably a typo; the sheet check asks about it."),
    ),
}
SCORING_LABELS = {
    Scoring.PLUS_MINUS: _("plus and minus (the row adds up to zero)"),
    Scoring.PLUS_POINTS: _("plus points (only the winners score)"),
}
SANCTION_LABELS = {
    UnsportsmanlikeSanction.WARNING: _("Warning"),
    UnsportsmanlikeSanction.DEDUCTION: _("Point deduction"),
    UnsportsmanlikeSanction.DISQUALIFICATION: _("Disqualification"),
}
FIELD_PREFIX = "param_"
# The fields of a custom profile, shown only when the rule profile "custom" is chosen.
CUSTOM_FIELDS = ["custom_base", *[FIELD_PREFIX + name for name in PARAMETERS]]
# Online registration and check-in: a group of their own on the page.
REGISTRATION_FIELDS = [
    "registration_open",
    "registration_capacity",
    "registration_opens_at",
    "registration_closes_at",
    "registration_approval",
    "registration_paused",
    "registration_consent",
    "entry_fee",
    "checkin_open",
]
# Publishing to the results service: a group of its own on the page.
PUBLISH_FIELDS = ["publish_results", "publish_delay_minutes", "publish_closed_rounds_only"]
# datetime-local inputs: the browser sends and shows "2026-11-14T18:00", in the site's time zone.
LOCAL_MOMENT = "%Y-%m-%dT%H:%M"

_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def slug_from_name(name: str) -> str:
    """The short name for the address of a tournament called ``name``: lower case, German
    umlauts as ae/oe/ue, ß as ss, other accents dropped, words joined by hyphens
    ("Herbstturnier Köln 2026" -> "herbstturnier-koeln-2026"), cut at a hyphen to fit."""
    text = unicodedata.normalize("NFKD", name.translate(_FOLD))
    text = text.encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    if len(slug) > SLUG_MAX - 4:  # room for a "-2" ... "-999" that makes it unique
        slug = slug[: SLUG_MAX - 4].rsplit("-", 1)[0] if "-" in slug else slug[: SLUG_MAX - 4]
    return slug or "turnier"


def _taken(slug: str, instance: Tournament) -> bool:
    return (
        slug in RESERVED_SLUGS
        or Tournament.objects.filter(slug=slug).exclude(pk=instance.pk).exists()
    )


def unique_slug(name: str, instance: Tournament) -> str:
    """``slug_from_name(name)``, with "-2", "-3", ... when another tournament has it."""
    base = slug_from_name(name)
    slug, counter = base, 1
    while _taken(slug, instance):
        counter += 1
        slug = f"{base}-{counter}"
    return slug


def _parameter_field(name: str, base: RuleProfile) -> forms.Field:
    label, help_text = PARAMETERS[name]
    current = getattr(base, name)
    common: dict[str, Any] = {"label": label, "help_text": help_text, "required": False}
    if name == "cards":
        return forms.TypedChoiceField(choices=[(48, "48"), (40, "40")], coerce=int, **common)
    if name == "scoring":
        return forms.ChoiceField(choices=list(SCORING_LABELS.items()), **common)
    if name == "sanctions":
        return forms.MultipleChoiceField(
            choices=list(SANCTION_LABELS.items()), widget=forms.CheckboxSelectMultiple, **common
        )
    if isinstance(current, bool):
        return forms.BooleanField(**common)
    low, high = _INT_RANGES[name]
    return forms.IntegerField(min_value=low, max_value=high, **common)


def parameter_values(profile: RuleProfile) -> dict[str, object]:
    """The form's values of ``profile``'s parameters, keyed by field name."""
    data = profile.as_dict()
    return {FIELD_PREFIX + name: data[name] for name in PARAMETERS}


class TournamentForm(forms.ModelForm):
    # Which profile the parameter fields were filled from when the form was shown: the
    # fields the director left as they were then are not stored as changes (see clean).
    shown_base = forms.CharField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "date",
            "venue",
            "planned_rounds",
            "separate_clubs_rounds",
            "teams_apart",
            "is_public",
            "standings_live",
            "tiebreak",
            "projector_seconds",
            "hide_standings_from",
            "rule_profile",
            "custom_base",
            *REGISTRATION_FIELDS,
            *PUBLISH_FIELDS,
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "registration_opens_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format=LOCAL_MOMENT
            ),
            "registration_closes_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format=LOCAL_MOMENT
            ),
            "registration_consent": forms.Textarea(attrs={"rows": 3}),
        }
        # "12,50" on a German page: the amount is read and shown in the page's language.
        localized_fields = ["entry_fee"]
        help_texts = {
            "slug": _(
                "Letters, digits and hyphens; used in the address of the public pages. Left "
                "empty, it is made from the name."
            ),
            "custom_base": _("The parameters below start from this profile; change what differs."),
            "registration_opens_at": _("Empty: open as soon as online registration is on."),
            "registration_closes_at": _(
                "Empty: open until the first round is drawn. Registration also closes then."
            ),
            "entry_fee": _("0 for no fee. The players page ticks who has paid."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("name", "venue"):
            self.fields[name].validators.append(no_control_characters)
        self.fields["planned_rounds"].validators.append(MaxValueValidator(MAX_ROUNDS))
        self.fields["slug"].required = False  # left empty: made from the name
        self.fields["slug"].widget.attrs["data-slug-from"] = "id_name"
        if self.instance.pk:
            self.fields["slug"].widget.attrs["data-slug-fixed"] = "1"
        self.fields["tiebreak"].required = False  # not chosen: equal totals share the rank
        self.fields["projector_seconds"].required = False  # left empty: as it was
        self.fields["publish_delay_minutes"].required = False
        self.fields["publish_delay_minutes"].widget.attrs.update(
            {"min": 0, "max": PUBLISH_DELAY_MAX}
        )
        self.fields["rule_profile"].widget.attrs["data-custom-value"] = CUSTOM
        # Left empty, the players see the standard text: shown greyed in the empty field.
        self.fields["registration_consent"].widget.attrs["placeholder"] = standard_consent()
        capacity = self.fields["registration_capacity"]
        capacity.validators += [MinValueValidator(1), MaxValueValidator(MAX_DRAW_PLAYERS)]
        capacity.widget.attrs.update({"min": 1, "max": MAX_DRAW_PLAYERS})
        self.fields["entry_fee"].required = False  # left empty: no fee
        self.fields["hide_standings_from"].widget.attrs.update({"min": 1, "max": MAX_ROUNDS})
        self.fields["entry_fee"].widget.attrs.update({"inputmode": "decimal", "size": 8})
        base_key = self.instance.custom_base or "ddv"
        shown = self._shown_profile(base_key)
        for name in PARAMETERS:
            self.fields[FIELD_PREFIX + name] = _parameter_field(name, shown)
        if not self.is_bound:
            self.initial.update(parameter_values(shown))
            self.initial["shown_base"] = base_key
            self.initial.setdefault("custom_base", base_key)
        # For the page's script: every shipped profile's values, to refill the fields when
        # the base changes.
        self.profile_values = {key: parameter_values(p) for key, p in PROFILES.items()}
        # What each shipped profile (and a custom one, from its base) takes from elsewhere than
        # its rule text; the page shows those of the chosen profile.
        self.profile_notes = [(key, profile_notes(p)) for key, p in PROFILES.items()]

    def _shown_profile(self, base_key: str) -> RuleProfile:
        """What the parameter fields show: the saved custom profile, else the base."""
        if self.instance.pk and self.instance.rule_profile == CUSTOM:
            try:
                return self.instance.profile
            except ProfileError:
                pass
        return PROFILES.get(base_key, PROFILES["ddv"])

    def notes_key(self) -> str:
        """The shipped profile whose notes the page shows first: the chosen one, or for a
        custom profile its base."""
        return profile_base(self["rule_profile"].value(), self["custom_base"].value())

    def general_fields(self):
        others = CUSTOM_FIELDS + REGISTRATION_FIELDS + PUBLISH_FIELDS + ["shown_base"]
        return [self[name] for name in self.fields if name not in others]

    def registration_fields(self):
        return [self[name] for name in REGISTRATION_FIELDS]

    def publish_fields(self):
        return [self[name] for name in PUBLISH_FIELDS]

    def custom_fields(self):
        return [self[name] for name in CUSTOM_FIELDS]

    def clean_slug(self):
        slug = self.cleaned_data.get("slug") or ""
        if not slug:  # a saved tournament keeps its address; a new one gets it in clean()
            return self.instance.slug if self.instance.pk else slug
        if slug in RESERVED_SLUGS:
            raise ValidationError(
                _("“%(slug)s” is a page of the site; choose another short name."),
                params={"slug": slug},
                code="reserved",
            )
        if Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk).exists():
            name = self.cleaned_data.get("name") or ""
            if not self.instance.pk and slug == slug_from_name(name):
                # Filled in from the name by the page's script, not chosen: like an empty
                # field, the name's short name made unique.
                return unique_slug(name, self.instance)
            raise ValidationError(
                _(
                    "The short name “%(slug)s” is already used by another tournament; "
                    "choose another, e.g. “%(free)s”."
                ),
                params={"slug": slug, "free": unique_slug(slug, self.instance)},
                code="taken",
            )
        return slug

    def clean_tiebreak(self):
        return self.cleaned_data.get("tiebreak") or "shared"

    def clean_entry_fee(self):
        fee = self.cleaned_data.get("entry_fee")
        if fee is None:
            return Decimal("0.00")
        if fee < 0:
            raise ValidationError(_("The entry fee cannot be negative."), code="negative")
        return fee

    def clean_registration_consent(self):
        # A browser sends a text area's line breaks as CR LF; other control characters are
        # refused like in every other field.
        text = (self.cleaned_data.get("registration_consent") or "").replace("\r\n", "\n")
        no_control_characters_except_line_breaks(text)
        return text

    def clean_projector_seconds(self):
        seconds = self.cleaned_data.get("projector_seconds")
        if seconds is None:
            return self.instance.projector_seconds
        return seconds

    def clean_publish_delay_minutes(self):
        minutes = self.cleaned_data.get("publish_delay_minutes")
        return 0 if minutes is None else minutes  # left empty: at once

    def _clean_hidden(self, cleaned: dict[str, Any]) -> None:
        """Hidden standings (issue 38): from a round the tournament plays, 1 to the planned
        rounds."""
        first, planned = cleaned.get("hide_standings_from"), cleaned.get("planned_rounds")
        if first is not None and planned and not 1 <= first <= planned:
            message = _(
                "Hide the standings from a round between 1 and %(rounds)s (the planned "
                "rounds), or leave the field empty to hide nothing."
            ) % {"rounds": planned}
            self.add_error("hide_standings_from", message)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if not cleaned.get("slug") and cleaned.get("name") and "slug" not in self.errors:
            cleaned["slug"] = unique_slug(cleaned["name"], self.instance)
        self._clean_registration(cleaned)
        self._clean_hidden(cleaned)
        profile = cleaned.get("rule_profile")
        if profile != CUSTOM:
            # Another profile: the parameter fields (hidden on the page) do not count.
            cleaned["custom_base"] = ""
            self.instance.custom_base = ""
            self.instance.custom_overrides = {}
            for name in PARAMETERS:
                self.errors.pop(FIELD_PREFIX + name, None)
            return cleaned
        base = cleaned.get("custom_base")
        if not base:
            self.add_error("custom_base", _("Choose the profile the custom one starts from."))
            return cleaned
        overrides = self._overrides(base, cleaned)
        if overrides is None:
            return cleaned
        try:
            derive(base, overrides)
        except ProfileError as exc:
            parameter = exc.params.get("name")
            field = FIELD_PREFIX + parameter if parameter in PARAMETERS else None
            if exc.code == "too-few-games-for-soli":
                field = FIELD_PREFIX + "pflichtsoli_per_round"
            elif exc.code == "deduction-without-maximum":
                field = FIELD_PREFIX + "max_deduction"
            self.add_error(field, PROFILE_ERRORS[exc.code] % exc.params)
            return cleaned
        self.instance.custom_overrides = overrides
        return cleaned

    def _clean_registration(self, cleaned: dict) -> None:
        if (
            cleaned.get("registration_open")
            and cleaned.get("registration_capacity") is None
            and "registration_capacity" not in self.errors
        ):
            self.add_error(
                "registration_capacity",
                _("Online registration needs the number of places: how many players fit in."),
            )
        if cleaned.get("registration_open") and not cleaned.get("is_public"):
            self.add_error(
                "registration_open",
                _(
                    "The registration form is on the tournament's public page: make the "
                    "tournament public as well."
                ),
            )
        opens, closes = cleaned.get("registration_opens_at"), cleaned.get("registration_closes_at")
        if opens and closes and closes <= opens:
            self.add_error(
                "registration_closes_at",
                _("Registration must close after it opens: check both dates and times."),
            )

    def _overrides(self, base: str, cleaned: dict) -> dict | None:
        """The parameters that differ from the profile ``base``. A field left empty keeps
        the base's value. Without the page's script a changed base does not refill the
        fields: a field still showing what it showed (``shown_base``) then takes the new
        base's value, and only what the director changed is stored as a change."""
        if any(FIELD_PREFIX + name in self.errors for name in PARAMETERS):
            return None
        # An unticked box is not sent at all: the boxes count only when the page's form was
        # sent (it always carries shown_base), not for a request that names a few fields.
        boxes_sent = "shown_base" in self.data
        wanted = PROFILES[base].as_dict()
        shown_key = cleaned.get("shown_base") or base
        if shown_key == (self.instance.custom_base or "ddv"):
            shown = self._shown_profile(shown_key).as_dict()
        else:
            shown = PROFILES.get(shown_key, PROFILES[base]).as_dict()
        overrides = {}
        for name in PARAMETERS:
            value = cleaned.get(FIELD_PREFIX + name)
            is_box = isinstance(wanted[name], bool) or name == "sanctions"
            if is_box and not boxes_sent:
                continue
            if name == "sanctions":
                value = [str(s) for s in SANCTION_LABELS if s in (value or [])]
            elif value in (None, ""):
                continue
            if shown_key != base and value == shown[name]:
                continue  # untouched: as the chosen base has it
            if value != wanted[name]:
                overrides[name] = value
        return overrides


assert set(PARAMETERS) == set(PARAMETER_NAMES)
