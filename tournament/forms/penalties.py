"""Forms of the referees: a penalty decision, its revocation, a referee account."""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from scoring.penalties import MAX_K, Category

from ..domain import referees
from ..domain.penalties import SANCTIONS, Facts
from ..models import PenaltyContext
from ..models.penalty import CATEGORY_CHOICES
from .text import LineField, TextAreaField

NUMBER = {"inputmode": "numeric", "autocomplete": "off"}


class PenaltyForm(forms.Form):
    """The facts a penalty row depends on (TSR 9.3-9.7, EPP 8). Fields that do not apply
    to the chosen category are ignored (the page hides them)."""

    game_number = forms.IntegerField(
        label=_("game"), min_value=1, max_value=99, widget=forms.NumberInput(attrs=NUMBER)
    )
    offender = forms.TypedChoiceField(label=_("offender"), coerce=int, widget=forms.RadioSelect)
    category = forms.ChoiceField(label=_("category"), widget=forms.RadioSelect)
    context = forms.ChoiceField(
        label=_("game situation"),
        choices=PenaltyContext.choices,
        initial=PenaltyContext.NORMAL,
        widget=forms.RadioSelect,
    )
    soloist = forms.TypedChoiceField(
        label=_("soloist"), coerce=int, required=False, empty_value=None, widget=forms.RadioSelect
    )
    disadvantages_soloist = forms.BooleanField(
        label=_("The violation could disadvantage the soloist (b1)"), required=False
    )
    absagen = forms.IntegerField(
        label=_("Absagen the other party had made (k)"),
        help_text=_("keine 90, keine 60, keine 30, schwarz: 0 to 4"),
        min_value=0,
        max_value=MAX_K,
        initial=0,
        required=False,
        widget=forms.NumberInput(attrs=NUMBER),
    )
    deduction = forms.IntegerField(
        label=_("points deducted"),
        min_value=1,
        required=False,
        widget=forms.NumberInput(attrs=NUMBER),
    )
    reason = TextAreaField(
        label=_("what happened"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    # The facts the referee saw the row for: signing other facts shows the row again.
    previewed = forms.CharField(required=False, widget=forms.HiddenInput)
    client_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    replaces = forms.IntegerField(required=False, widget=forms.HiddenInput)
    revoke_reason = TextAreaField(
        label=_("why the earlier decision is revoked"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, sheet, profile, replacing=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        players = [
            (seat.position, f"{seat.position} · {seat.entry.start_number} {seat.entry.player}")
            for seat in sheet.seats
        ]
        cast(forms.ChoiceField, self.fields["offender"]).choices = players
        cast(forms.ChoiceField, self.fields["soloist"]).choices = [("", _("–")), *players]
        cast(forms.ChoiceField, self.fields["category"]).choices = [
            (value, label)
            for value, label in CATEGORY_CHOICES
            if value not in SANCTIONS or SANCTIONS[Category(value)] in profile.sanctions
        ]
        cast(forms.IntegerField, self.fields["deduction"]).max_value = profile.max_deduction
        self.fields["deduction"].validators.append(MaxValueValidator(profile.max_deduction))
        self.fields["deduction"].widget.attrs["max"] = profile.max_deduction
        self.fields["deduction"].help_text = _("1 to %(maximum)s points, credited to nobody") % {
            "maximum": profile.max_deduction
        }
        self.fields["game_number"].widget.attrs["max"] = len(sheet.games) + 1
        self.replacing = replacing
        if not self.is_bound:
            self.initial.setdefault("client_id", uuid.uuid4())
        if replacing is not None:
            self.fields["revoke_reason"].required = True

    def clean(self):
        super().clean()
        data = self.cleaned_data
        category = data.get("category")
        missing = not data.get("deduction") and "deduction" not in self.errors
        if category == Category.DEDUCTION and missing:
            self.add_error("deduction", _("How many points are deducted?"))
        context = data.get("context")
        situational = category in (
            Category.GERINGFUEGIG,
            Category.SCHWERWIEGEND,
            Category.DECIDED_GAME,
        )
        solo = context in (PenaltyContext.SOLO, PenaltyContext.HOCHZEIT_AFTER)
        if situational and solo and not data.get("soloist"):
            self.add_error("soloist", _("Who plays the solo?"))
        return data

    def facts(self) -> Facts:
        data = self.cleaned_data
        return Facts(
            game_number=data["game_number"],
            offender=data["offender"],
            category=data["category"],
            context=data["context"],
            soloist=data.get("soloist"),
            disadvantages_soloist=bool(data.get("disadvantages_soloist")),
            absagen=data.get("absagen") or 0,
            deduction=data.get("deduction") or 0,
            reason=data.get("reason") or "",
        )


def facts_key(facts: Facts, points) -> str:
    """A short fingerprint of the facts and the row shown, carried from the preview to the
    signature: if either changed in between, the referee sees the row again."""
    payload = json.dumps([facts.__dict__, list(points)], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def initial_for(penalty) -> dict:
    """The form filled with the facts of an earlier penalty (to replace it)."""
    return {
        "game_number": penalty.game_number,
        "offender": penalty.offender_position,
        "category": penalty.category,
        "context": penalty.context,
        "soloist": penalty.soloist_position,
        "disadvantages_soloist": penalty.disadvantages_soloist,
        "absagen": penalty.absagen,
        "deduction": penalty.deduction or None,
        "reason": penalty.reason,
        "replaces": penalty.pk,
    }


class RevokeForm(forms.Form):
    reason = TextAreaField(
        label=_("reason for the revocation"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class RefereeCallForm(forms.Form):
    """A table asks for a referee (the list keeper's page)."""

    game_number = forms.IntegerField(
        label=_("game"), min_value=1, max_value=99, required=False, widget=forms.HiddenInput
    )
    note = LineField(label=_("what is it about? (optional)"), max_length=300, required=False)


class RefereeAccountForm(forms.Form):
    """A director adds a referee: an existing account by its user name, or a new one."""

    username = forms.CharField(
        label=_("user name"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text=_("Letters, digits and @ . + - _ only."),
    )
    first_name = LineField(label=_("first name"), max_length=150, required=False)
    last_name = LineField(label=_("last name"), max_length=150, required=False)
    password = forms.CharField(
        label=_("password (new accounts only)"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        super().clean()
        data = self.cleaned_data
        user_model = get_user_model()
        # As Django stores it (NFKC): "ｓｃｈｉｒｉ" is the account "schiri".
        username = data["username"] = user_model.normalize_username(data.get("username") or "")
        if not username:
            return data
        if len(username) > 150:  # a character such as "ﷺ" is many once normalised
            self.add_error("username", _("The user name is too long."))
            return data
        self.existing = user_model.objects.filter(username=username).first()
        if self.existing is not None and not referees.may_become_referee(self.existing):
            self.add_error("username", referees.refused_account_message())
        elif self.existing is None:
            password = data.get("password")
            if not password:
                self.add_error(
                    "password", _("No account has this user name: give a password to create it.")
                )
            else:
                try:
                    validate_password(password, user_model(username=username))
                except forms.ValidationError as exc:
                    self.add_error("password", exc)
        return data
