"""Every file a page hands out, named in the one scheme (:func:`.export.file_name`).

The files made in the background (PDFs, workbooks: ``tournament/tasks/documents.py``) take their
names from here; the small ones made at once are exporters here that return an
:class:`~.export.Export`.
"""

from __future__ import annotations

import json
from typing import Any

from ..models import Series, Tournament
from ..queries.standings import final as is_final
from . import federation, xlsx
from .export import CSV, JSON, XLSX, Export, file_name
from .fees import fees_workbook

# The standings page's files by what they hold.
LISTS = {"standings": "rangliste", "teams": "teams", "rounds": "runden"}


def list_name(tournament: Tournament, what: str, fmt: str) -> str:
    """Standings, teams or rounds: ``herbst-rangliste.pdf``."""
    return file_name(tournament.slug, LISTS[what], suffix=fmt)


def results_name(tournament: Tournament, fmt: str) -> str:
    """The results for the federation; until the tournament is finished the name says that
    they are provisional (the CSV itself cannot say it)."""
    return file_name(
        tournament.slug, "ergebnisse", "" if is_final(tournament) else "vorläufig", suffix=fmt
    )


def print_pack_name(tournament: Tournament, number: int) -> str:
    return file_name(tournament.slug, "druckpaket", "runde", number, suffix="pdf")


def cards_name(tournament: Tournament, numbers: list[int] | None = None) -> str:
    """All players' cards, or the cards of some start numbers (a card printed again):
    ``herbst-spielerkarten-nr-2-7.pdf``, so that it does not replace the whole set in the
    download folder."""
    if not numbers:
        return file_name(tournament.slug, "spielerkarten", suffix="pdf")
    return file_name(tournament.slug, "spielerkarten", "nr", *numbers, suffix="pdf")


def series_name(series: Series, fmt: str, *, public_only: bool) -> str:
    """The series' table; the director's file, which also counts the tournaments not shown
    in public, says so."""
    return file_name(series.slug, "serienwertung", "" if public_only else "intern", suffix=fmt)


def payout_name(tournament: Tournament, fmt: str) -> str:
    """The payout sheet (issue 38): ``herbst-auszahlung.pdf``, provisional until the
    tournament is finished (``herbst-auszahlung-vorläufig.xlsx``)."""
    return file_name(
        tournament.slug, "auszahlung", "" if is_final(tournament) else "vorläufig", suffix=fmt
    )


def certificates_name(tournament: Tournament, *, everyone: bool) -> str:
    """The certificates of the prize winners (``herbst-urkunden.pdf``) or of every ranked
    player (``herbst-urkunden-alle.pdf``), provisional until the tournament is finished."""
    words = ["alle" if everyone else "", "" if is_final(tournament) else "vorläufig"]
    return file_name(tournament.slug, "urkunden", *words, suffix="pdf")


def results_csv(tournament: Tournament) -> Export:
    return Export(results_name(tournament, "csv"), CSV, federation.results_csv(tournament))


def fees(tournament: Tournament) -> Export:
    """The treasurer's list."""
    name = file_name(tournament.slug, "startgeld", suffix="xlsx")
    return Export(name, XLSX, fees_workbook(tournament))


def penalties(tournament: Tournament) -> Export:
    """The referees' penalty record."""
    name = file_name(tournament.slug, "strafen", suffix="xlsx")
    return Export(name, XLSX, xlsx.penalties_workbook(tournament))


def personal_data(tournament: Tournament, full_name: str, data: dict[str, Any]) -> Export:
    """What the site holds of one person (``data``), asked from ``tournament``'s pages."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    name = file_name(tournament.slug, "personendaten", full_name, suffix="json")
    return Export(name, JSON, text.encode("utf-8"))
