"""The seat draw: who sits at which table, in which seat, in every round.

Pure Python without Django (an import-linter contract keeps it so), usable and testable on
its own. It holds only what a draw runs; what lives where:

* ``types`` - what to draw and what a draw returns (:class:`DrawRequest`, :class:`Plan`,
  ...); ``measures`` - the table sizes of a field (:func:`table_sizes`), the lower bound
  (:func:`lower_bound`) and the quality of a plan (:func:`evaluate`);
* ``solver`` - the draw itself (:func:`draw`), which runs the following in turn:
  ``problem`` (the request in indices, fair five-table ranges, the repeat target),
  ``starts`` (five-table seats, starts from constructions and previous plans), ``tabu``
  (the search) and ``positions`` (seat positions);
* ``construct`` - algebraic repeat-free plans the solver starts from in the hard fields;
* ``plans``, ``covering`` and ``mixed`` - stored plans those constructions use, written by
  the offline generators in tools/seating_plans/ (``make plans``; the site never imports
  them).

The site imports the public names from here: ``from tournament import seating``.
"""

from .measures import evaluate, lower_bound, table_sizes
from .solver import draw
from .types import (
    DrawRequest,
    DrawStats,
    Group,
    ImpossibleField,
    ImpossibleWishes,
    Plan,
    Quality,
)

__all__ = [
    "DrawRequest",
    "DrawStats",
    "Group",
    "ImpossibleField",
    "ImpossibleWishes",
    "Plan",
    "Quality",
    "draw",
    "evaluate",
    "lower_bound",
    "table_sizes",
]
