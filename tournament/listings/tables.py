import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ..models import Entry


class EntryTable(tables.Table):
    """The players page's table: its columns, their headers and the sorting they offer. Its
    rows are ``tournament/manage/_entry_row.html``, rendered once per state of the row and
    kept (``tournament/web/live_rows.py``); the page hands them over in ``body_html``."""

    start_number = tables.Column(verbose_name=_("No."))
    # Every sort ends with the start number: rows that tie keep one order on every database
    # (PostgreSQL returns ties in any order; the live part takes a new order for a move).
    name = tables.Column(
        verbose_name=_("Name"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name", "start_number"),
    )
    club = tables.Column(
        verbose_name=_("Club"), accessor="player__club", order_by=("player__club", "start_number")
    )
    team = tables.Column(
        verbose_name=_("Team"), accessor="team__name", order_by=("team__name", "start_number")
    )
    status = tables.Column(verbose_name=_("Status"), order_by=("status", "start_number"))
    checked_in = tables.Column(
        verbose_name=_("Checked in"), order_by=("checked_in", "start_number")
    )
    # Shown only where the tournament takes an entry fee (see views.entries).
    fee = tables.Column(verbose_name=_("Entry fee"), order_by=("fee", "start_number"))
    actions = tables.Column(verbose_name="", empty_values=(), orderable=False)

    class Meta:
        model = Entry
        fields = ("start_number", "name", "club", "team", "status", "checked_in", "fee")
        sequence = (
            "start_number",
            "name",
            "club",
            "team",
            "status",
            "checked_in",
            "fee",
            "actions",
        )
        attrs = {"class": "table entries"}
        empty_text = _("No players registered yet.")
        template_name = "tournament/partials/entries_table.html"

    body_html = ""
