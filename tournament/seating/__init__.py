"""The seat draw: who sits at which table, in which seat, in every round.

Pure Python without Django (an import-linter contract keeps it so), usable and testable on
its own. What lives where:

* ``solver`` - the draw itself (:func:`draw`), the measures of a plan (:func:`evaluate`,
  :func:`lower_bound`) and the table sizes of a field (:func:`table_sizes`);
* ``construct`` - algebraic repeat-free plans the solver starts from in the hard fields;
* ``plans`` and ``covering`` - stored base rounds those constructions use, generated once by
  ``python -m tournament.seating.make_plans`` and ``python -m tournament.seating.make_covering``
  (the generators sit next to what they write; the site never imports them).

The site imports the solver's names from here: ``from tournament import seating``.
"""

from .solver import (
    DrawRequest,
    DrawStats,
    Group,
    ImpossibleField,
    Plan,
    Quality,
    draw,
    evaluate,
    lower_bound,
    table_sizes,
)

__all__ = [
    "DrawRequest",
    "DrawStats",
    "Group",
    "ImpossibleField",
    "Plan",
    "Quality",
    "draw",
    "evaluate",
    "lower_bound",
    "table_sizes",
]
