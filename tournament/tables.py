import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import Entry


class EntryTable(tables.Table):
    start_number = tables.Column(verbose_name=_("No."), attrs={"td": {"class": "num"}})
    name = tables.Column(
        verbose_name=_("Name"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
    )
    club = tables.Column(verbose_name=_("Club"), accessor="player__club")
    team = tables.Column(verbose_name=_("Team"), accessor="team__name", default="")
    status = tables.Column(verbose_name=_("Status"))
    checked_in = tables.TemplateColumn(
        template_name="tournament/partials/checkin_cell.html",
        verbose_name=_("Checked in"),
        order_by=("checked_in",),
    )
    actions = tables.TemplateColumn(
        template_name="tournament/partials/entry_actions.html",
        verbose_name="",
        orderable=False,
    )

    class Meta:
        model = Entry
        fields = ("start_number", "name", "club", "team", "status", "checked_in")
        sequence = ("start_number", "name", "club", "team", "status", "checked_in", "actions")
        attrs = {"class": "table entries"}
        row_attrs = {
            "id": lambda record: f"entry-{record.pk}",
            "class": lambda record: record.status,
        }
        empty_text = _("No players registered yet.")

    def render_status(self, value, record):
        warnings = getattr(record, "warnings", 0)
        if not warnings:
            return value
        label = ngettext("%(count)s warning", "%(count)s warnings", warnings) % {"count": warnings}
        return format_html('{} <span class="badge owes">⚠ {}</span>', value, label)

    def render_name(self, record):
        player = record.player
        return f"{player.last_name}, {player.first_name}" if player.first_name else player.last_name
