"""The reads: what the pages, exports and commands show, one module per concept (the
Spielliste, the standings, a series' table, the statistics, the projector, a player's day and
their personal data). A read never writes and costs a fixed number of queries; the verbs that
change the same data live one level up, in :mod:`tournament.domain` and
:mod:`tournament.sheets.verbs`."""
