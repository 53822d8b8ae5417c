"""Row locks shared by the Spielliste verbs (tournament/sheets/verbs.py) and the penalty
verbs (domain/penalties.py): both write a table's sheet under the same lock."""

from __future__ import annotations

from ..models import Table


def locked_table(table: Table) -> Table:
    """The table row locked for this transaction, with its sheet: saves to one sheet happen
    one at a time."""
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "sheet")
        .get(pk=table.pk)
    )
