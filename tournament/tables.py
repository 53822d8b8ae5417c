import django_tables2 as tables
from django.template.loader import get_template
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import Entry, FeeStatus


class CellTemplateColumn(tables.TemplateColumn):
    """A column whose cells are a template, rendered in the page's own context.

    The stock column copies the whole page context and runs every context processor again for
    each cell: on the players page (three such columns) that took two seconds for 200 players,
    on every refresh of the live page. Here a cell costs a template render and nothing more.
    """

    def render(self, record, table, value, bound_column, **kwargs):
        page = getattr(table, "context", None)
        if page is None or not self.template_name:  # not rendered by {% render_table %}
            return super().render(record, table, value, bound_column, **kwargs)
        cell = self.get_context_data(
            record=record, table=table, value=value, bound_column=bound_column, **kwargs
        )
        with page.update(cell):
            # The Django engine's wrapper holds the compiled template, which takes a Context.
            return get_template(self.template_name).template.render(page)  # type: ignore[attr-defined]


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
    checked_in = CellTemplateColumn(
        template_name="tournament/partials/checkin_cell.html",
        verbose_name=_("Checked in"),
        order_by=("checked_in",),
    )
    # Shown only where the tournament takes an entry fee (see views.entries).
    fee = CellTemplateColumn(
        template_name="tournament/partials/fee_cell.html",
        verbose_name=_("Entry fee"),
        order_by=("fee",),
        extra_context={"fee_choices": FeeStatus.choices},
    )
    actions = CellTemplateColumn(
        template_name="tournament/partials/entry_actions.html",
        verbose_name="",
        orderable=False,
    )

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
        row_attrs = {
            "id": lambda record: f"entry-{record.pk}",
            "class": lambda record: record.status,
        }
        empty_text = _("No players registered yet.")
        template_name = "tournament/partials/entries_table.html"

    # The rows as HTML, made by the players page (tournament/live_rows.py); None: rendered
    # here cell by cell.
    body_html: str | None = None

    def render_status(self, value, record):
        warnings = getattr(record, "warnings", 0)
        if not warnings:
            return value
        label = ngettext("%(count)s warning", "%(count)s warnings", warnings) % {"count": warnings}
        return format_html('{} <span class="badge owes">⚠ {}</span>', value, label)

    def render_name(self, record):
        player = record.player
        name = f"{player.last_name}, {player.first_name}" if player.first_name else player.last_name
        # ``online``: annotated by the players page (registered on the public form).
        if getattr(record, "online", False):
            return format_html(
                '{} <span class="badge online" title="{}">{}</span>',
                name,
                _("registered online"),
                _("online"),
            )
        return name
