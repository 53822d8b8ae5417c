"""The Spielliste of one table in one round: its rows, its workflow and how it is read.

The model is :class:`tournament.models.Sheet` (one per table, with the workflow: status,
submit/confirm, extra time, time limit) and the table's ``Game`` rows. ``verbs`` holds every
write (each in its own transaction, each leaving a history record through
``models.audit.stamp``); ``checks`` who may change what (the checks before a write);
``codes`` the confirmation codes of the player cards and how
wrong ones are counted; ``display`` how the pages show a sheet; ``paper`` the one parser of
paper lists and sheet files. What the pages read (``load``, the clock, the board of a round in
a fixed number of queries, the one ``current_round``) is in :mod:`tournament.queries.sheets`.
Imports go ``display -> verbs -> checks, codes``.
"""
