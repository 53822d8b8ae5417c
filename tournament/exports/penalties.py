"""The referees' record as listings: every penalty with its state, and every change of each."""

from __future__ import annotations

from datetime import UTC

from django.utils.translation import gettext as _

from ..models import Penalty, Tournament
from ..models.audit import history_reason, role_label
from ..models.penalty import points_of, signed_points, state_label
from .rows import Column, ColumnKind, Listing, when


def _who(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def penalty_rows(tournament: Tournament) -> Listing:
    """Every penalty of the tournament, whatever its state, in the order they were entered."""
    listing = Listing(
        [
            Column("number", _("No."), ColumnKind.NUMBER),
            Column("entered", _("entered")),
            Column("round", _("round"), ColumnKind.NUMBER),
            Column("table", _("table"), ColumnKind.NUMBER),
            Column("game", _("game"), ColumnKind.NUMBER),
            Column("start_number", _("start number"), ColumnKind.NUMBER),
            Column("offender", _("offender"), ColumnKind.NAME),
            Column("category", _("category")),
            Column("context", _("game situation")),
            Column("points", _("points")),
            Column("offender_points", _("offender's points"), ColumnKind.PENALTIES),
            Column("state", _("status")),
            Column("referee", _("referee")),
            Column("signed_at", _("signed at")),
            Column("reason", _("reason")),
            Column("revoked_at", _("revoked at")),
            Column("revoked_by", _("revoked by")),
            Column("revoke_reason", _("reason for the revocation")),
            Column("replaces", _("replaces"), ColumnKind.NUMBER),
        ]
    )
    penalties = (
        Penalty.objects.filter(table__round__tournament=tournament)
        .select_related(
            "table__round", "offender__player", "referee", "revoked_by", "entered_by", "replaces"
        )
        .order_by("created_at", "pk")
    )
    for item in penalties:
        listing.add(
            [
                item.number,
                when(item.created_at),
                item.table.round.number,
                item.table.number,
                item.game_number,
                item.offender.start_number,
                item.offender.player.full_name,
                item.get_category_display(),
                item.get_context_display(),
                signed_points(item.points),
                item.points[item.offender_position - 1] if item.offender_position else None,
                item.get_state_display(),
                _who(item.referee),
                when(item.signed_at),
                item.reason,
                when(item.revoked_at),
                _who(item.revoked_by),
                item.revoke_reason,
                item.replaces.number if item.replaces else None,
            ]
        )
    return listing


def penalty_history_rows(tournament: Tournament) -> Listing:
    """Every recorded change of every penalty: who, when (UTC), what, why."""
    listing = Listing(
        [
            Column("number", _("No."), ColumnKind.NUMBER),
            Column("when", _("when (UTC)")),
            Column("by", _("by")),
            Column("role", _("role")),
            Column("what", _("what")),
            Column("state", _("status")),
            Column("points", _("points")),
            Column("note", _("note")),
        ]
    )
    kinds = {"+": _("entered"), "~": _("changed"), "-": _("deleted")}
    records = (
        Penalty.history.filter(table__round__tournament=tournament)
        .select_related("history_user")
        .order_by("number", "history_date", "history_id")
    )
    for record in records:
        listing.add(
            [
                record.number,
                record.history_date.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
                _who(record.history_user),
                role_label(record.history_role),
                kinds.get(record.history_type, record.history_type),
                state_label(record),
                signed_points(points_of(record)),
                history_reason(record),
            ]
        )
    return listing
