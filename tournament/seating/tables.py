"""Table numbers: which table of a round gets which number (:func:`number_tables`).

The solver returns a round's tables in the order of the field's table sizes (five-tables
first); that order becomes the table numbers. A player fixed to a table (a seat wish, e.g. a
wheelchair place by the door) is met by renumbering, not by constraining the search: the
table the player sits at in a round takes the wished number, and the other tables keep their
order on the numbers left. So a fixed player still shares the five-tables fairly: their table
is a five-table exactly in the rounds where the fair share gives them one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def number_tables(round_: Sequence[Sequence[int]], at_table: Mapping[int, int]) -> list[list[int]]:
    """The tables of ``round_`` in table-number order, so that every player of ``at_table``
    (player -> table number, counted from 1) sits at their table.

    The players fixed to numbers must sit at different tables of ``round_`` and the numbers
    must be distinct and at most the number of tables (the solver's wish check ensures both;
    a ValueError otherwise). Without fixed players in the round, the order is unchanged.
    Deterministic: no random numbers, no hash order.
    """
    tables = [list(t) for t in round_]
    if not at_table:
        return tables
    where = {p: i for i, t in enumerate(tables) for p in t}
    placed: dict[int, int] = {}  # position (number - 1) -> index of the table in round_
    for player, number in sorted(at_table.items(), key=lambda item: item[1]):
        if player not in where:
            continue  # not seated in this round (the solver only passes seated players)
        if not 1 <= number <= len(tables):
            raise ValueError(f"table {number} does not exist in a round of {len(tables)}")
        table = where[player]
        if number - 1 in placed or table in placed.values():
            raise ValueError(f"player {player} cannot sit at table {number}")
        placed[number - 1] = table
    rest = iter(i for i in range(len(tables)) if i not in placed.values())
    return [
        tables[placed[pos]] if pos in placed else tables[next(rest)] for pos in range(len(tables))
    ]
