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


# The columns a phone folds into the line under the name (site.css: "public pages on a phone").
FOLD = "fold"
# Columns left out when no line of the standings has anything to show in them.
OPTIONAL_COLUMNS = ("club", "team", "penalties", "note")


def standings_table(standings, rows, *, shown=OPTIONAL_COLUMNS, order_param="sort"):
    """A sortable table of the standings with one column per counted round; of the
    ``OPTIONAL_COLUMNS`` only those in ``shown``."""
    extra = [
        (
            f"r{number}",
            tables.Column(
                verbose_name=_("R%(number)s") % {"number": number},
                attrs={"td": {"class": f"num {FOLD}"}, "th": {"class": f"num {FOLD}"}},
                default="–",
            ),
        )
        for number in standings.round_numbers
    ]
    hidden = [name for name in OPTIONAL_COLUMNS if name not in shown]
    table = StandingsTable(
        rows,
        extra_columns=extra,
        exclude=hidden,
        order_by_field=order_param,
        template_name="tournament/partials/standings_table.html",
    )
    sequence = [
        "rank", "start_number", "name", "club", "team",
        *[name for name, _column in extra], "penalties", "total", "note",
    ]  # fmt: skip
    table.sequence = [name for name in sequence if name not in hidden]
    return table


def _folded(css: str = "") -> dict:
    return {"td": {"class": f"{css} {FOLD}".strip()}, "th": {"class": f"{css} {FOLD}".strip()}}


class StandingsTable(tables.Table):
    rank = tables.Column(
        verbose_name=_("Rank"),
        attrs={"td": {"class": "num rank"}, "th": {"class": "num"}},
        default="",
    )
    start_number = tables.Column(verbose_name=_("No."), attrs=_folded("num"))
    name = tables.Column(verbose_name=_("Name"), attrs={"td": {"class": "name"}})
    club = tables.Column(verbose_name=_("Club"), default="", attrs=_folded())
    team = tables.Column(verbose_name=_("Team"), default="", attrs=_folded())
    penalties = tables.Column(verbose_name=_("Penalties"), attrs=_folded("num penalties"))
    total = tables.Column(
        verbose_name=_("Total"), attrs={"td": {"class": "num total"}, "th": {"class": "num total"}}
    )
    note = tables.Column(verbose_name="", orderable=False, default="", attrs=_folded())

    class Meta:
        attrs = {"class": "table standings", "id": "standings"}
        row_attrs = {"class": lambda record: record["css"], "id": lambda record: record["id"]}
        empty_text = _("No results yet.")
        orderable = True
