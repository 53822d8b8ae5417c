"""Every kind of row a Spielliste holds, by the one letter that names it everywhere: on the
paper list, in the desk grid, in a sheet file, on the pages and in the print pack
(TSR 4.2.4, 4.3.2, 4.4.3, 4.4.5).

=====  ==========================================================================
N      normal game (a Hochzeit that found a partner included)
P      Pflichtsolo
V      vorgeführtes Pflichtsolo
L      Lustsolo
H      Hochzeit that became a solo (no partner found)
Q      stille Hochzeit: the player holding both Queens of clubs (Kreuz-Damen) played
       alone without saying so. Q for the two Queens; the other free letters name
       something else at a Doppelkopf table (D Damensolo, K Kreuz or Kontra, A Armut)
S      Strafe: penalty points a referee gave; a row of its own, never a game
=====  ==========================================================================

Old sheet files keep their meaning: H was and is a Hochzeit scored as a solo; S was never
read as anything but a penalty in a file. Only the desk grid used S for the stille Hochzeit.
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """A row of the Spielliste; the value is its letter."""

    NORMAL = "N"
    PFLICHTSOLO = "P"
    VORGEFUEHRT = "V"
    LUSTSOLO = "L"
    HOCHZEIT = "H"
    STILLE_HOCHZEIT = "Q"
    PENALTY = "S"

    @property
    def is_game(self) -> bool:
        """A game played at the table (a penalty row is not one)."""
        return self is not Kind.PENALTY

    @property
    def is_solo(self) -> bool:
        """Scored as a solo: one soloist against the others (TSR 7.2, 10.1.1)."""
        return self.is_game and self is not Kind.NORMAL

    @property
    def is_pflichtsolo(self) -> bool:
        """Counts as the soloist's Pflichtsolo (TSR 4.2)."""
        return self in (Kind.PFLICHTSOLO, Kind.VORGEFUEHRT)


GAME_KINDS = tuple(kind for kind in Kind if kind.is_game)
