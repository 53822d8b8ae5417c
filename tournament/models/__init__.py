"""Kreuzdame's data model, one module per aggregate."""

from .club import Club, PlayerOrigin, PublishingKey
from .device import TableDevice
from .document import Document, DocumentStatus
from .penalty import Penalty, PenaltyContext, PenaltyState, RefereeCall
from .player import Player
from .prize import CertificateDesign, Measure, Orientation, Prize, PrizeCategory, PrizeKind, Ties
from .publishing import Publication, PublishChange, PublishingTarget, Withdrawal
from .ratelimit import RateBucket
from .registration import Registration, RegistrationState
from .result import RoundResult
from .round import DrawLog, Round, Seat, SeatMail, Table
from .round_status import RoundStatus
from .series import Series, SeriesMethod, SeriesTiebreak
from .sheet import Game, GameKind, Sheet, SheetStatus
from .tournament import (
    ApartGroup,
    Entry,
    EntryStatus,
    FeeStatus,
    Sex,
    Team,
    Tournament,
    TournamentStatus,
    pseudonym,
)

__all__ = [
    "ApartGroup",
    "CertificateDesign",
    "Measure",
    "Orientation",
    "Prize",
    "PrizeCategory",
    "PrizeKind",
    "Sex",
    "Ties",
    "Club",
    "PlayerOrigin",
    "PublishingKey",
    "Document",
    "DocumentStatus",
    "DrawLog",
    "Entry",
    "EntryStatus",
    "FeeStatus",
    "Game",
    "GameKind",
    "Penalty",
    "PenaltyContext",
    "PenaltyState",
    "Player",
    "Publication",
    "PublishChange",
    "PublishingTarget",
    "RateBucket",
    "RefereeCall",
    "Registration",
    "RegistrationState",
    "Round",
    "RoundResult",
    "RoundStatus",
    "Seat",
    "SeatMail",
    "Series",
    "SeriesMethod",
    "SeriesTiebreak",
    "Sheet",
    "SheetStatus",
    "Table",
    "TableDevice",
    "Team",
    "Tournament",
    "TournamentStatus",
    "Withdrawal",
    "pseudonym",
]
