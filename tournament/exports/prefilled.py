"""What a pre-filled Spielliste of the print pack shows: its table, the seated players and the
game lines. The print pack (printpack.py) fills them; the score sheet (scoresheet.py) draws
them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SeatedPlayer:
    position: int
    start_number: int
    first_name: str
    last_name: str
    is_keeper: bool
    deals_first: bool

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def sort_name(self) -> str:
        """The name as on the seat list: "Last, First"."""
        return f"{self.last_name}, {self.first_name}" if self.first_name else self.last_name


@dataclass(frozen=True)
class GameLine:
    number: int
    dealer: int
    # One flag per position: True where that player sits out (the dealer at a 5-table).
    sits_out: tuple[bool, ...]
    # The last game of a complete dealing round: drawn with a stronger rule below it.
    ends_cycle: bool


@dataclass
class PrintTable:
    number: int
    size: int
    keeper_url: str
    qr: str  # the address of the QR code image in the document (see qr_png)
    # The code's modules, quiet zone included, True where dark: the score sheet draws them.
    qr_modules: list[list[bool]] = field(default_factory=list)
    players: list[SeatedPlayer] = field(default_factory=list)
    games: list[GameLine] = field(default_factory=list)

    @property
    def keeper(self) -> SeatedPlayer | None:
        return next((p for p in self.players if p.is_keeper), None)
