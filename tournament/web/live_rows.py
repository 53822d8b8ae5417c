"""The players page's table, row by row (issue 33, item 5).

A row of the players page is some 3 KB of forms (check-in, fee, withdraw, code) and took
about 2.5 ms to render: 200 rows were half a second, on every load and on every refresh of the
live part. Here each row is described by a short fingerprint of everything it shows, read in
one light query, and its HTML is kept in the cache under that fingerprint: a row is rendered
again only when something in it changed. The CSRF token is not part of the kept HTML (a
placeholder stands in its place and the response gets the request's own token).

The same fingerprints let the live poll send only what changed: every state the page was
sent is remembered (its rows' fingerprints and order, and what the parts above and beside the
table show) under its state token, which the page sends back when it asks again. Unknown
or forgotten state, or rows added, gone or moved: the whole table, as before.
"""

import hashlib
import re
from dataclasses import dataclass, field

from django.core.cache import cache
from django.middleware.csrf import get_token
from django.template import Context
from django.template.loader import get_template
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe

from ..models import FeeStatus

# What a row shows (tournament/manage/_entry_row.html and the cell templates it includes);
# a field added there belongs here too, or the kept row would not follow it.
ROW_FIELDS = (
    "pk",
    "start_number",
    "status",
    "checked_in",
    "fee",
    "fee_changed_at",
    "fee_changed_by__username",
    "player__first_name",
    "player__last_name",
    "player__club",
    "team__name",
    "warnings",
    "online",
    "confirm_code",
    "publish",
    "birth_year",
    "sex",
    "guest",
    "newcomer",
)
CSRF_PLACEHOLDER = "csrf-token-placeholder-9c41e7"
STATE_SECONDS = 15 * 60  # a state not seen for longer: the whole table once
ROWS_SECONDS = 24 * 60 * 60
STATE_PATTERN = re.compile(r"[0-9a-f]{24}")


def _digest(value) -> str:
    return hashlib.blake2b(repr(value).encode(), digest_size=12).hexdigest()


@dataclass
class State:
    """What the page shows: the parts beside the table by fingerprint, the rows in order."""

    parts: dict[str, str]
    order: list[int]
    rows: dict[int, str] = field(default_factory=dict)

    @property
    def token(self) -> str:
        return _digest((sorted(self.parts.items()), [(pk, self.rows[pk]) for pk in self.order]))


def read_state(ordered_rows, parts: dict) -> State:
    """The state of the page: ``ordered_rows`` is the table's queryset in the table's order
    (one query of plain values), ``parts`` what the other live parts show."""
    state = State(parts={name: _digest(value) for name, value in parts.items()}, order=[])
    for values in ordered_rows.values_list(*ROW_FIELDS):
        state.order.append(values[0])
        state.rows[values[0]] = _digest(values)
    return state


def _state_key(tournament, token: str) -> str:
    return f"players-state:{tournament.pk}:{token}"


def remember(tournament, state: State) -> None:
    """Keep the state for the page's next poll; a state asked for again is kept longer (a
    page left open on a quiet desk keeps getting changes alone)."""
    key = _state_key(tournament, state.token)
    if not cache.touch(key, STATE_SECONDS):
        cache.set(key, state, STATE_SECONDS)


def recall(tournament, token: str | None) -> State | None:
    """The state the page sent back, if it is one this site remembers."""
    if not token or not STATE_PATTERN.fullmatch(token):
        return None
    return cache.get(_state_key(tournament, token))


def _rows_key(tournament, columns: tuple[str, ...], begun: bool) -> str:
    # The language and today's date are in the row (status names, "ticked at 09:12"), and
    # whether the first round is drawn (what withdrawing does then).
    day = timezone.localdate().isoformat()
    language = translation.get_language()
    columns_key = ",".join(columns)
    return f"players-rows:{tournament.pk}:{tournament.slug}:{language}:{day}:{begun}:{columns_key}"


def _record_values(record) -> tuple:
    """A rendered record's values in the order of ``ROW_FIELDS``."""
    by, team = record.fee_changed_by, record.team
    return (
        record.pk,
        record.start_number,
        record.status,
        record.checked_in,
        record.fee,
        record.fee_changed_at,
        by.username if by else None,
        record.player.first_name,
        record.player.last_name,
        record.player.club,
        team.name if team else None,
        record.warnings,
        record.online,
        record.confirm_code,
        record.publish,
        record.birth_year,
        record.sex,
        record.guest,
        record.newcomer,
    )


def rows_html(
    request, tournament, table, state: State, records, pks=None, *, begun: bool = False
) -> dict[int, str]:
    """The HTML of the rows ``pks`` (all of the state's by default) with the request's
    CSRF token: from the cache where the row's fingerprint is the same, else rendered from
    ``records`` (a queryset of the table's rows, as the table shows them). ``begun``: the
    first round is drawn (the rows say what withdrawing does then)."""
    wanted = state.order if pks is None else list(pks)
    columns = tuple(column.name for column in table.columns)
    key = _rows_key(tournament, columns, begun)
    kept: dict[int, tuple[str, str]] = cache.get(key) or {}
    html = {pk: kept[pk][1] for pk in wanted if pk in kept and kept[pk][0] == state.rows[pk]}
    missing = [pk for pk in wanted if pk not in html]
    if missing:
        template = get_template("tournament/manage/_entry_row.html").template  # type: ignore[attr-defined]
        context = Context(
            {
                "tournament": tournament,
                "csrf_token": CSRF_PLACEHOLDER,
                "fee_choices": FeeStatus.choices,
                "show_fee": "fee" in columns,
                "begun": begun,
            }
        )
        for record in records.filter(pk__in=missing):
            with context.push(record=record):
                row = template.render(context)
            html[record.pk] = row
            # Kept under the fingerprint of what was rendered: should the row have changed
            # since the state was read, the next poll sends it again.
            kept[record.pk] = (_digest(_record_values(record)), row)
        cache.set(key, kept, ROWS_SECONDS)
    token = get_token(request)
    return {pk: html[pk].replace(CSRF_PLACEHOLDER, token) for pk in wanted if pk in html}


def table_body(rows: dict[int, str], order: list[int]) -> SafeString:
    return mark_safe("".join(rows[pk] for pk in order if pk in rows))  # noqa: S308 - rendered, escaped


def oob_rows(rows: dict[int, str]) -> list[SafeString]:
    """Changed rows for htmx to swap by id: a <tr> outside a table needs a <template>."""
    return [
        mark_safe("<template>" + html.replace("<tr ", '<tr hx-swap-oob="true" ', 1) + "</template>")  # noqa: S308
        for html in rows.values()
    ]
