"""Kreuzdame's data model, one module per aggregate."""

from .penalty import Penalty, PenaltyCategory, PenaltyContext, PenaltyState, RefereeCall
from .player import Player, normalize_name
from .ratelimit import RateBucket
from .round import DrawLog, Round, RoundStatus, Seat, SheetStatus, Table
from .sheet import Game, GameKind
from .tournament import Entry, EntryStatus, Team, Tournament, TournamentStatus

__all__ = [
    "DrawLog",
    "Entry",
    "EntryStatus",
    "Game",
    "GameKind",
    "Penalty",
    "PenaltyCategory",
    "PenaltyContext",
    "PenaltyState",
    "Player",
    "RateBucket",
    "RefereeCall",
    "Round",
    "RoundStatus",
    "Seat",
    "SheetStatus",
    "Table",
    "Team",
    "Tournament",
    "TournamentStatus",
    "normalize_name",
]
