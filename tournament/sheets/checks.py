"""Who may change what on a Spielliste: the checks the verbs (:mod:`.verbs`) make before they
write, and the refusals the pages tell apart. Reads only; a refusal is a
:class:`~tournament.errors.DomainError`."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..domain.actor import Actor
from ..errors import DomainError
from ..models import RoundStatus, SheetStatus, Table


class ReasonRequired(DomainError):
    """A change to a submitted sheet or a closed round came without a reason: the page shows
    this next to its reason field."""


class DirectorOnly(DomainError):
    """A step at the office that only a director of the tournament may take."""


def needs_reason(table: Table) -> bool:
    """A change to a submitted sheet or to a closed round is the office's, with a reason."""
    return table.round.status == RoundStatus.CLOSED or table.sheet.status != SheetStatus.OPEN


def check_writable(table: Table, actor: Actor, reason: str) -> None:
    """Refuse a change to ``table``'s rows: before the round is released, in a closed round
    for anybody but the director, on a submitted sheet for a list keeper, and at the office
    without a reason where one is needed."""
    status = table.round.status
    if not table.round.started:
        raise DomainError(_("This round has not been released yet."))
    if status == RoundStatus.CLOSED and actor.privileged and not actor.director:
        raise DomainError(
            _("Round %(number)s is closed: only the tournament director can change its sheets.")
            % {"number": table.round.number}
        )
    if needs_reason(table):
        if not actor.privileged:
            if status == RoundStatus.CLOSED:
                raise DomainError(_("The round is closed. Ask the tournament office."))
            raise DomainError(
                _("The sheet has been submitted. Ask the tournament office for changes.")
            )
        if not reason.strip():
            raise ReasonRequired(_("Changing a submitted sheet or a closed round needs a reason."))
