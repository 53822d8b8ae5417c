"""The confirmation codes of the player cards: a list keeper on the table's link submits or
confirms a sheet with their start number and the code of their card, so that the sheet names
who really did it. Wrong codes are counted, so that guessing them takes too long.

Wrong codes are counted per guessing browser (issue 34): anybody holding a table's link could
otherwise lock its submit and confirm, again and again, and the genuine player's correct code
was refused with the guesses. A guesser is a browser (the table link's signed cookie) at an
address; a request without that cookie counts against its address, with every other such
request from there (tournament/views/keeper.py). One guesser waiting never stops another, so
the real player's phone keeps working. The director unlocks a table and renews its players'
codes with one click (:func:`tournament.sheets.verbs.renew_codes`).
"""

from __future__ import annotations

import secrets
from contextvars import ContextVar
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..base import ratelimit
from ..errors import DomainError
from ..models import RateBucket, Seat, Table

# Wrong confirmation codes one guesser may give at a table before it must wait: 5 in 10
# minutes leave at most 30 guesses an hour against 90 000 codes of one player, and a player
# who mistyped twice is not stuck.
CODE_FAILURES, CODE_WINDOW = 5, 600


# A phone gets its browser id with the first page of a table's link (tournament/views/
# keeper.py): at most this many new ones per table and address within CODE_WINDOW (a table
# has four or five phones), so that a script throwing its cookie away does not get a fresh
# count each time. Without one, a request's wrong codes count against its address, together
# with every other such request from there. Counted in the server process (InMemory): no
# database write for a page view.
BROWSERS_PER_TABLE = 10
new_browsers = ratelimit.InMemory()

# Wrong codes for one start number at a table, from all guessers together, within
# CODE_WINDOW: the ceiling that holds however many phones and networks guess (at most 120
# guesses an hour against 90 000 codes). Past it that start number's code is refused for
# the rest of the window, also the right one: the office sees it, confirms the sheet on the
# board or unlocks the table and renews its codes. A player's own mistypes never reach it.
NUMBER_FAILURES = 20


def bucket_prefix(table: Table) -> str:
    """The start of every key the table's wrong codes are counted under."""
    return f"confirm-code:table:{table.pk}:"


def may_give_browser_id(table: Table, address: str) -> bool:
    """Whether a phone at ``address`` without a browser id gets one at ``table`` (counted)."""
    key = f"{table.pk}:{address}"
    return new_browsers.take(key, BROWSERS_PER_TABLE, CODE_WINDOW) is None


def unlock(table: Table) -> None:
    """Forget the table's counted wrong codes and browser ids given: every phone may try
    again at once, and new phones get their browser id."""
    RateBucket.objects.filter(key__startswith=bucket_prefix(table)).delete()
    new_browsers.forget(f"{table.pk}:")


class WrongCode(DomainError):
    """The confirmation code does not belong to the start number; counted against the start
    number and the table."""


class TooManyCodes(DomainError):
    """Too many wrong codes from this browser at this table: it must wait ``seconds`` (or
    the office confirms on the board, or unlocks the table)."""

    def __init__(self, seconds: int) -> None:
        minutes = max(1, -(-seconds // 60))
        super().__init__(
            _(
                "Too many wrong codes from this phone. Please call the tournament office: it "
                "can confirm the sheet or unlock the table. Or try again in %(minutes)s min, "
                "or on another player's phone."
            )
            % {"minutes": minutes}
        )
        self.seconds = seconds


class TooManyForNumber(TooManyCodes):
    """Too many wrong codes for one start number at the table, from all phones together."""

    def __init__(self, seconds: int, start_number: int) -> None:
        DomainError.__init__(
            self,
            _(
                "Too many wrong codes were given for start number %(number)s at this table. "
                "Please call the tournament office: it can confirm the sheet, or unlock the "
                "table and renew its codes."
            )
            % {"number": start_number},
        )
        self.seconds = seconds


def _code_limits(table: Table, guesser: str, start_number: int) -> tuple[tuple[str, int], ...]:
    prefix = bucket_prefix(table)
    return (
        (f"{prefix}guesser:{guesser}"[:200], CODE_FAILURES),
        (f"{prefix}number:{start_number}", NUMBER_FAILURES),
    )


@dataclass
class _CodeSlots:
    """The slots taken for one code check, before it (see :func:`counting_wrong_codes`)."""

    guesser: str
    start_number: int
    slots: tuple[ratelimit.Slot, ...]
    wait: int | None
    number_over: bool = False  # the start number's ceiling, not the guesser's limit


class _CodeSlotsNeeded(Exception):
    """Raised by :func:`check_player_code` inside the verb's transaction: nothing is written
    yet, the transaction is rolled back, and the slots are taken outside of it."""

    def __init__(self, guesser: str, start_number: int) -> None:
        super().__init__(guesser)
        self.guesser, self.start_number = guesser, start_number


_code_slots: ContextVar[list[_CodeSlots] | None] = ContextVar("code_slots", default=None)


def counting_wrong_codes(table: Table, verb):
    """Run ``verb`` with its code check counted first: every code compared takes a slot in the
    buckets of its start number and of the table before the comparison, each in a short
    transaction of its own that is committed at once, so that parallel requests cannot all
    read a count below the limit. A wrong code keeps its slots; anything else gives them back.

    The verb's transaction locks the table, and the slots must not be taken (and rolled back)
    inside it: when the check finds no slot, it asks for one (:class:`_CodeSlotsNeeded`), the
    verb's transaction rolls back before it has written anything, the slots are taken, and the
    verb runs again."""
    taken: list[_CodeSlots] = []
    context = _code_slots.set(taken)
    counted = False
    try:
        try:
            return verb()
        except _CodeSlotsNeeded as needed:
            guesser, number = needed.guesser, needed.start_number
            limits = _code_limits(table, guesser, number)
            slots = tuple(ratelimit.take(key, limit, CODE_WINDOW) for key, limit in limits)
            waits = [slot.wait for slot in slots if slot.wait is not None]
            if waits:
                ratelimit.give_back(slots)
                over = slots[1].wait is not None and slots[0].wait is None
                taken.append(_CodeSlots(guesser, number, (), max(waits), over))
            else:
                taken.append(_CodeSlots(guesser, number, slots, None))
            return verb()
    except WrongCode:
        counted = True
        raise
    finally:
        _code_slots.reset(context)
        if not counted:
            ratelimit.give_back(slot for entry in taken for slot in entry.slots)


def check_player_code(
    table: Table, start_number: int | None, code: str | None, guesser: str
) -> Seat:
    """The player on the token link is who they say: their start number sits at the table
    and ``code`` is the one on their player card. After ``CODE_FAILURES`` wrong codes from
    ``guesser`` (a browser at a network) at the table within ``CODE_WINDOW`` seconds
    :class:`TooManyCodes` — for that guesser only; after ``NUMBER_FAILURES`` wrong codes for
    the start number from everybody :class:`TooManyForNumber`. Runs only under
    :func:`counting_wrong_codes`."""
    seat = _table_seat(table, start_number)
    if seat is None or start_number is None:
        raise DomainError(_("Enter your start number: it must be one of this table."))
    taken = _code_slots.get()
    if taken is None:
        raise RuntimeError("A code is only checked under counting_wrong_codes().")
    mine = next((t for t in taken if t.guesser == guesser and t.start_number == start_number), None)
    if mine is None:
        raise _CodeSlotsNeeded(guesser, start_number)
    if mine.wait is not None:
        if mine.number_over:
            raise TooManyForNumber(mine.wait, start_number)
        raise TooManyCodes(mine.wait)
    expected = seat.entry.confirm_code
    if not code or not secrets.compare_digest(code.encode(), expected.encode()):
        raise WrongCode(
            _(
                "This code does not belong to start number %(number)s. Enter the code from "
                "your own player card; nothing was saved."
            )
            % {"number": start_number}
        )
    return seat


def _table_seat(table: Table, start_number: int | None) -> Seat | None:
    if start_number is None:
        return None
    return table.seats.filter(entry__start_number=start_number).first()
