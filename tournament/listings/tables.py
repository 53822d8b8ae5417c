import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ..models import Entry


class EntryTable(tables.Table):
    """The players page's table: its columns, their headers and the sorting they offer. Its
    rows are ``tournament/manage/_entry_row.html``, rendered once per state of the row and
    kept (``tournament/web/live_rows.py``); the page hands them over in ``body_html``."""

    start_number = tables.Column(verbose_name=_("No."))
    name = tables.Column(
        verbose_name=_("Name"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
    )
    club = tables.Column(verbose_name=_("Club"), accessor="player__club")
    team = tables.Column(verbose_name=_("Team"), accessor="team__name")
    status = tables.Column(verbose_name=_("Status"))
    checked_in = tables.Column(verbose_name=_("Checked in"))
    # Shown only where the tournament takes an entry fee (see views.entries).
    fee = tables.Column(verbose_name=_("Entry fee"))
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
