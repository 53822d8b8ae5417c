"""Rule profiles: every parameter in which the tournament rule texts differ, as data.

The three shipped profiles follow section 1 of RULES.md: the DDV Turnier-Spielregeln 2026
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
    # Open points no rule text settles (RULES.md section 8): kept as settings, not constants.
    # At a 5-table the dealer sits out. If he is the only one still owing a Pflichtsolo when it
    # must be vorgeführt, True lets the deal pass to his left neighbour so that he can play it.
    vorfuehren_sitter_passes_deal: bool = True
    # Warn (not err) when a game's value v exceeds these: likely a typo on the paper list.
    max_plausible_normal: int = 16
    max_plausible_solo: int = 16

    def games_per_round(self, table_size: int) -> int:
        """Nominal number of games in one round at a table of ``table_size`` players."""
        return self.games_per_round_5 if table_size == 5 else self.games_per_round_4

    def playing_minutes(self, table_size: int) -> int:
        """Playing time of one round in minutes at a table of ``table_size`` players."""
        return self.playing_minutes_5 if table_size == 5 else self.playing_minutes_4

    def as_dict(self) -> dict[str, Any]:
        """The parameters as JSON-friendly values (enums as strings, tuples as lists)."""
        data = dataclasses.asdict(self)
        data["scoring"] = str(self.scoring)
        data["sanctions"] = [str(s) for s in self.sanctions]
        return data


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
    :class:`ProfileError` with a stable code, so a stored custom profile is always valid.
    """
    base = get_profile(base_key)
    fields = {f.name: f for f in dataclasses.fields(RuleProfile)}
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if name == "key" or name not in fields:
            raise ProfileError("unknown-parameter", name=name)
        changes[name] = _coerce(name, value, getattr(base, name))
    profile = dataclasses.replace(base, key=CUSTOM, **changes)
    _check_consistent(profile)
    return profile


def _check_consistent(profile: RuleProfile) -> None:
    """Parameters that are possible alone but not together."""
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
