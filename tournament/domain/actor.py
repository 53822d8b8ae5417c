"""Who changes a sheet or calls a referee: the actor named in the history records of the
Spielliste verbs (tournament/sheets/verbs.py) and of the referee calls (domain/referees.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """Who changes a sheet. ``label`` goes into the history (e.g. "Tisch 3 (Link)");
    ``privileged`` is a director or referee of the tournament."""

    label: str
    user: object | None = None
    privileged: bool = False
    start_number: int | None = None
    director: bool = False  # a director of the tournament: may change closed rounds
    # On a table's link: the browser and address giving a confirmation code, under which
    # its wrong codes are counted (tournament/sheets/codes.py).
    guesser: str = ""
