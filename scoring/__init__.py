"""Kreuzdame's rules engine for Doppelkopf tournaments.

Pure Python (standard library only): it never imports Django, so the rules can be tested in
milliseconds and used from the command line. An import-linter contract enforces this.
"""
