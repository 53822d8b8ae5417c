"""The offline generators of the stored seat plans the draw starts from.

They write tournament/seating/plans.py, covering.py and mixed.py, which the runtime reads;
the site never imports them. ``make plans`` builds the C searches (anneal_mixed.c,
tabu_symmetric.c) with every warning an error and runs every generator; each one also runs
on its own, e.g. ``python -m tools.seating_plans.make_mixed 29x7`` (see its docstring).
"""
