"""The public state of a tournament as it leaves the hall: part of ``tournament.archive``
(profile "public"), packed into the zip the service restores, and its digest (equal public
states, equal digests)."""

from __future__ import annotations

import copy
from datetime import datetime

from tournament import archive
from tournament.models import Tournament

from .visibility import Visibility


def build(tournament: Tournament, visible: Visibility, now: datetime) -> dict:
    return archive.build(
        tournament, profile="public", results_visible=visible.for_archive(), now=now
    )


def withdrawal(tournament: Tournament, now: datetime) -> dict:
    """The state that takes ``tournament`` off the service: the public archive of a
    tournament that is not public (only who it is; every list empty), whether the director
    made it private or only switched publishing off."""
    hidden = copy.copy(tournament)
    hidden.is_public = False
    return archive.build(hidden, profile="public", now=now)


def pack(doc: dict) -> bytes:
    return archive.pack(doc)


def digest(doc: dict) -> str:
    return archive.digest(doc)
