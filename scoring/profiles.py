"""Rule profiles: every parameter in which the tournament rule texts differ, as data.

The three shipped profiles follow their own rule texts: the DDV Turnier-Spielregeln 2026
(``ddv``), the Betriebssportverband Hessen rules of 2010 (``bsv-hessen-2010``) and the Eppstein
rules of 2001 (``eppstein-2001``). A tournament may derive a custom profile from any of them by
changing parameters; :func:`derive` validates such a change.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Scoring(StrEnum):
    """How a game's value becomes points on the sheet."""

    PLUS_MINUS = "plus-minus"  # zero-sum: winners +v, losers -v (DDV, BSV)
    PLUS_POINTS = "plus-points"  # only the winners score, Re/Kontra double (Eppstein)


class UnsportsmanlikeSanction(StrEnum):
    WARNING = "warning"
    DEDUCTION = "deduction"
    DISQUALIFICATION = "disqualification"


class NotInText(StrEnum):
    """Something a profile applies that its own rule text does not give (the profiles' rule:
    where a text is silent, a default). Stable keys; the site words them for people."""

    # BSV 9.3 names geringfügige violations without points: the amounts of TSR 9.3.
    PENALTY_GERINGFUEGIG = "penalty-geringfuegig"
    # BSV has no schwerwiegend violations with points at all: the scale of TSR 9.4.
    PENALTY_SCHWERWIEGEND = "penalty-schwerwiegend"
    # BSV mentions the Pflichtsolo (4.2.1 b) but gives no rules for it: those of TSR 4.2, 4.3.
    PFLICHTSOLO = "pflichtsolo"
    # No text decides vorfuehren_sitter_passes_deal: Kreuzdame's own choice.
    VORFUEHREN_SITTER_PASSES_DEAL = "vorfuehren-sitter-passes-deal"


@dataclass(frozen=True)
class RuleProfile:
    """The parameters of one rule profile. Frozen: derive a new one to change anything."""

    key: str
    cards: int
    games_per_round_4: int
    games_per_round_5: int
    playing_minutes_4: int
    playing_minutes_5: int
    pflichtsoli_per_round: int
    pflichtsolo_dealer_repeats: bool
    vorgefuehrt_dealer_repeats: bool
    lustsolo_only_after_pflichtsolo: bool
    scoring: Scoring
    even_odd_rule_4: bool
    sanctions: tuple[UnsportsmanlikeSanction, ...]
    max_deduction: int
    decided_game_extra_penalty: bool
    # Open points no rule text settles (TSR 4.2.3 with 10.1.1): kept as settings, not constants.
    # At a 5-table the dealer sits out. If he is the only one still owing a Pflichtsolo when it
    # must be vorgeführt, True lets the deal pass to his left neighbour so that he can play it.
    vorfuehren_sitter_passes_deal: bool = True
    # Warn (not err) when a game's value v exceeds these: likely a typo on the paper list.
    max_plausible_normal: int = 16
    max_plausible_solo: int = 16
    # Not a parameter but a fact about the profile: what it takes from elsewhere because its
    # rule text does not give it. A custom profile keeps its base's; no form field sets it.
    not_in_text: tuple[NotInText, ...] = (NotInText.VORFUEHREN_SITTER_PASSES_DEAL,)

    def games_per_round(self, table_size: int) -> int:
        """Nominal number of games in one round at a table of ``table_size`` players."""
        return self.games_per_round_5 if table_size == 5 else self.games_per_round_4

    def playing_minutes(self, table_size: int) -> int:
        """Playing time of one round in minutes at a table of ``table_size`` players."""
        return self.playing_minutes_5 if table_size == 5 else self.playing_minutes_4

    def as_dict(self) -> dict[str, Any]:
        """The key and the parameters as JSON-friendly values (enums as strings, tuples as
        lists); without ``not_in_text``, which is no parameter."""
        data = {name: getattr(self, name) for name in ("key", *PARAMETER_NAMES)}
        data["scoring"] = str(self.scoring)
        data["sanctions"] = [str(s) for s in self.sanctions]
        return data


# The fields a custom profile may change: all but the key and the notes about the text.
PARAMETER_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(RuleProfile) if f.name not in ("key", "not_in_text")
)

_ALL_SANCTIONS = (
    UnsportsmanlikeSanction.WARNING,
    UnsportsmanlikeSanction.DEDUCTION,
    UnsportsmanlikeSanction.DISQUALIFICATION,
)

DDV = RuleProfile(
    key="ddv",
    cards=48,
    games_per_round_4=24,
    games_per_round_5=30,
    playing_minutes_4=100,
    playing_minutes_5=125,
    pflichtsoli_per_round=1,
    pflichtsolo_dealer_repeats=True,
    vorgefuehrt_dealer_repeats=False,
    lustsolo_only_after_pflichtsolo=True,
    scoring=Scoring.PLUS_MINUS,
    even_odd_rule_4=True,
    sanctions=_ALL_SANCTIONS,
    max_deduction=12,
    decided_game_extra_penalty=True,
)

BSV_HESSEN_2010 = dataclasses.replace(
    DDV,
    key="bsv-hessen-2010",
    cards=40,
    playing_minutes_4=120,
    playing_minutes_5=140,
    sanctions=(UnsportsmanlikeSanction.WARNING, UnsportsmanlikeSanction.DISQUALIFICATION),
    max_deduction=0,
    decided_game_extra_penalty=False,
    not_in_text=(
        NotInText.PENALTY_GERINGFUEGIG,
        NotInText.PENALTY_SCHWERWIEGEND,
        NotInText.PFLICHTSOLO,
        NotInText.VORFUEHREN_SITTER_PASSES_DEAL,
    ),
)

EPPSTEIN_2001 = dataclasses.replace(
    DDV,
    key="eppstein-2001",
    games_per_round_4=16,
    games_per_round_5=20,
    playing_minutes_4=120,
    playing_minutes_5=120,
    scoring=Scoring.PLUS_POINTS,
    even_odd_rule_4=False,
    # Re and Kontra multiply by four: values of 20 to 36 are ordinary here.
    max_plausible_normal=40,
    max_plausible_solo=40,
)

PROFILES: dict[str, RuleProfile] = {p.key: p for p in (DDV, BSV_HESSEN_2010, EPPSTEIN_2001)}

CUSTOM = "custom"


class ProfileError(ValueError):
    """A profile key or parameter that does not exist or has an impossible value."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


def get_profile(key: str) -> RuleProfile:
    """The shipped profile called ``key``; raises :class:`ProfileError` for an unknown key."""
    try:
        return PROFILES[key]
    except KeyError:
        raise ProfileError("unknown-profile", key=key) from None


_INT_RANGES = {
    "cards": (40, 48),
    "games_per_round_4": (1, 60),
    "games_per_round_5": (1, 75),
    "playing_minutes_4": (1, 600),
    "playing_minutes_5": (1, 600),
    "pflichtsoli_per_round": (0, 5),
    "max_deduction": (0, 100),
    "max_plausible_normal": (1, 200),
    "max_plausible_solo": (1, 200),
}


def derive(base_key: str, overrides: dict[str, Any]) -> RuleProfile:
    """A custom profile: the shipped profile ``base_key`` with ``overrides`` applied.

    Every override is checked for name, type and range; anything wrong raises
    :class:`ProfileError` with a stable code, so a stored custom profile is always valid. The
    custom profile keeps the base's ``not_in_text``.
    """
    base = get_profile(base_key)
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if name not in PARAMETER_NAMES:
            raise ProfileError("unknown-parameter", name=name)
        changes[name] = _coerce(name, value, getattr(base, name))
    profile = dataclasses.replace(base, key=CUSTOM, **changes)
    _check_consistent(profile)
    return profile


def _check_consistent(profile: RuleProfile) -> None:
    """Parameters that are possible alone but not together."""
    if profile.cards not in (40, 48):  # the pack with or without the nines, nothing between
        raise ProfileError("bad-parameter", name="cards", value=profile.cards)
    for size in (4, 5):
        if profile.games_per_round(size) < size * profile.pflichtsoli_per_round:
            raise ProfileError(
                "too-few-games-for-soli",
                size=size,
                games=profile.games_per_round(size),
                soli=size * profile.pflichtsoli_per_round,
            )
    if UnsportsmanlikeSanction.DEDUCTION in profile.sanctions and profile.max_deduction < 1:
        raise ProfileError("deduction-without-maximum")


def _coerce(name: str, value: Any, current: Any) -> Any:
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ProfileError("bad-parameter", name=name, value=value)
        return value
    if isinstance(current, int):
        low, high = _INT_RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ProfileError("bad-parameter", name=name, value=value)
        return value
    if isinstance(current, Scoring):
        try:
            return Scoring(value)
        except ValueError:
            raise ProfileError("bad-parameter", name=name, value=value) from None
    try:
        return tuple(UnsportsmanlikeSanction(v) for v in value)
    except (TypeError, ValueError):
        raise ProfileError("bad-parameter", name=name, value=value) from None
