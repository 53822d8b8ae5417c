"""Spielliste entry: the list keeper's phone page behind the table's secret link, and the
tournament office's pages (board, desk entry, file import, history, workflow)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from .. import ratelimit
from ..domain import DomainError
from ..domain.sheet_file import parse_sheet_file
from ..findings import finding_message
from ..forms.penalties import RefereeCallForm
from ..forms.sheets import (
    ConfirmForm,
    DeleteRowForm,
    DeskGrid,
    ExtraTimeForm,
    GameEntryForm,
    ReasonForm,
    SheetFileForm,
    edit_initial,
    take_initial,
)
from ..imports.tabular import ImportFileError
from ..models import Game, GameKind, RefereeCall, RoundStatus, SheetStatus, Table
from ..models.audit import role_label
from ..permissions import (
    director_required,
    get_managed_tournament,
    get_officiated_tournament,
    manages,
    official_required,
)
from ..sheets import verbs as sheet_domain
from ..sheets.verbs import LETTER_OF, Conflict, RowInput
from ..site_url import public_url
from .calculator import calculator_page

# Wrong table links: after this many from one address within the window, 429.
TOKEN_FAILURES, TOKEN_WINDOW = 20, 300


def _findings_text(findings):
    return [(f.level, finding_message(f.code, f.params)) for f in findings]


def _minutes(seconds: int | None) -> str:
    """A countdown as the hall clock shows it: 1:05:09 or 12:30."""
    if seconds is None:
        return ""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def initials(user) -> str:
    """A referee's initials, as they sign a penalty row on the paper list."""
    if user is None:
        return ""
    parts = [user.first_name, user.last_name]
    letters = "".join(part[0] for part in parts if part)
    return letters.upper() or user.get_username()[:3]


def short_name(seat) -> str:
    """A seated player as a narrow column names them: "4 Müller, A." (start number, last
    name, initial)."""
    if seat is None:
        return ""
    player = seat.entry.player
    initial = f", {player.first_name[:1]}." if player.first_name else ""
    return f"{seat.entry.start_number} {player.last_name}{initial}"


def person_of(seats, start_number: int | None) -> str:
    """Who acted on the table's link, by name: "Anna Müller (start no. 4)"; "" if unknown."""
    seat = next((s for s in seats if s.entry.start_number == start_number), None)
    if start_number is None or seat is None:
        return ""
    return _("%(name)s (start no. %(number)s)") % {
        "name": seat.entry.player.full_name,
        "number": start_number,
    }


def _penalty_row(penalty):
    return {
        "penalty": penalty,
        "number": penalty.game_number,
        "letter": "S",
        "soloist": None,
        "points": penalty.points,
        "signed": initials(penalty.referee),
        "signed_by": penalty.referee.get_full_name() or penalty.referee.get_username(),
        "findings": [],
    }


def sheet_context(sheet, **extra):
    """What the sheet partial shows: rows with their findings, players, totals, ledger."""
    table = sheet.table
    names = {s.position: s for s in sheet.seats}
    step = sheet.next_step
    rows = []
    penalties = list(sheet.penalties)
    for game in sheet.games:
        rows.append(
            {
                "game": game,
                "number": game.number,
                "letter": LETTER_OF[game.kind],
                "soloist": game.soloist_position,
                "points": game.points,
                "findings": _findings_text(sheet.by_game.get(game.number, [])),
            }
        )
        while penalties and penalties[0].game_number <= game.number:
            rows.append(_penalty_row(penalties.pop(0)))
    rows += [_penalty_row(p) for p in penalties]  # given in the game being played
    game_numbers = {g.number for g in sheet.games}
    other = [f for f in sheet.findings if f.game not in game_numbers]
    totals = sheet.totals
    players = [
        {
            "position": p,
            "seat": names.get(p),
            "short": short_name(names.get(p)),
            "total": totals[p - 1],
            "owes": p in step.owing_before,
        }
        for p in range(1, table.size + 1)
    ]
    outlook = sheet.outlook
    context = {
        "sheet": sheet,
        "outlook": outlook,
        "outlook_seats": [names.get(p) for p in outlook.positions],
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "rows": rows,
        "other_findings": _findings_text(other),
        "players": players,
        "step": step,
        "dealer": names.get(step.dealer),
        "vorfuehren": names.get(step.vorfuehren) if step.vorfuehren else None,
        "owing": [names.get(p) for p in step.owing_before],
        "submitted_by": (
            person_of(sheet.seats, table.submitted_start_number)
            or sheet_domain.readable(table.submitted_by)
        ),
        "seconds_left": sheet.clock.seconds_left(),
        "time_left": _minutes(sheet.clock.seconds_left()),
    }
    context.update(extra)
    return context


# --- the list keeper's link -----------------------------------------------------------------


def _keeper_table(request, token: str) -> Table:
    """The table behind a link, while its round is running or after it was closed (then
    :class:`_Closed`); 404 for a round not released yet and for unknown links. Only unknown
    links count against the address (429 after too many): a real link always works, also
    from a hall where every phone shares one address."""
    table = Table.objects.select_related("round__tournament").filter(token=token).first()
    if table is not None:
        if table.round.status == RoundStatus.CLOSED:
            raise _Closed(table)
        if table.round.status != RoundStatus.RELEASED:
            raise Http404
        return table
    key = f"table-token:{ratelimit.client_address(request)}"
    wait = ratelimit.retry_after(key, TOKEN_FAILURES, TOKEN_WINDOW)
    if wait is not None:
        raise _TooMany(wait)
    ratelimit.hit(key, TOKEN_WINDOW)
    raise Http404


class _TooMany(Exception):
    def __init__(self, seconds: int) -> None:
        self.seconds = seconds


class _Closed(Exception):  # noqa: N818 - a signal, not an error
    def __init__(self, table: Table) -> None:
        self.table = table


def _keeper_view(view):
    def wrapper(request, token, *args, **kwargs):
        try:
            table = _keeper_table(request, token)
        except _TooMany as exc:
            return ratelimit.too_many(exc.seconds)
        except _Closed as exc:
            return _closed_render(request, exc.table)
        return view(request, table, *args, **kwargs)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


def _keeper_render(
    request,
    table,
    form=None,
    *,
    conflict=None,
    status=200,
    notice=None,
    error=False,
    warning=False,
    sheet=None,
    **extra,
):
    table.refresh_from_db()
    sheet = sheet or sheet_domain.load(table)
    if form is None:
        form = GameEntryForm(sheet=sheet)
    context = sheet_context(
        sheet,
        form=form,
        conflict=conflict,
        notice=notice,
        notice_error=error,
        notice_warning=warning,
        token=table.token,
        editable=table.sheet_status == SheetStatus.OPEN,
        open_call=table.referee_calls.filter(handled_at__isnull=True).first(),
        outbox=_outbox_data(table, sheet),
        **extra,
    )
    template = "tournament/sheet/keeper.html"
    if request.htmx and request.htmx.target == "sheet":
        template = "tournament/sheet/_keeper_body.html"
    return render(request, template, context, status=status)


def _closed_render(request, table):
    """An old link after its round was closed: the table's final sheet, read-only, with a
    line saying so. Whatever was sent to it (a game saved late, a submit, a poll) changes
    nothing: 410, and an htmx page reloads itself to show this. The phone's outbox shows the
    games it still holds as not on the list (outbox.js, data-closed)."""
    sheet = sheet_domain.load(table)
    notice = None
    status = 200
    if request.method == "POST":
        status = 410
        notice = _(
            "Nothing was saved: this round is closed. Show the tournament office what you "
            "wanted to enter."
        )
    context = sheet_context(
        sheet,
        form=None,
        notice=notice,
        notice_error=bool(notice),
        token=table.token,
        closed=True,
        editable=False,
        outbox=_outbox_data(table, sheet),
    )
    template = "tournament/sheet/keeper.html"
    if request.htmx and request.htmx.target == "sheet":
        template = "tournament/sheet/_keeper_body.html"
    response = render(request, template, context, status=status)
    if request.htmx:
        # A page opened while the round ran (its poll, a button): htmx reloads it, and it
        # shows itself as this closed page. The outbox's own requests see the 410.
        response["HX-Refresh"] = "true"
    return response


def _outbox_data(table, sheet) -> dict:
    """What the phone's outbox (outbox.js) needs to prepare the next game while earlier ones
    still wait to be sent: the letters for its pending rows, the names for the winner and
    soloist choices, and whether the dealer deals again after a Pflichtsolo, so it can guess
    who sits out at a 5-table. Only a hint: the server checks every game when it arrives."""
    profile = table.round.tournament.profile
    return {
        "size": table.size,
        "names": {s.position: s.entry.player.full_name for s in sheet.seats},
        "letters": {kind.value: letter for kind, letter in LETTER_OF.items()},
        "repeats": {
            GameKind.PFLICHTSOLO.value: profile.pflichtsolo_dealer_repeats,
            GameKind.VORGEFUEHRT.value: profile.vorgefuehrt_dealer_repeats,
        },
    }


def _edit_form(sheet, number: int) -> GameEntryForm | None:
    game = next((g for g in sheet.games if g.number == number), None)
    if game is None:
        return None
    return GameEntryForm(sheet=sheet, initial=edit_initial(game, sheet))


@_keeper_view
def keeper_sheet(request, table):
    """The phone page: the sheet so far and the form for the next game (GET), or save a
    game (POST)."""
    if request.method == "POST":
        return _save_game(request, table, sheet_domain.keeper_actor(table))
    form = None
    if request.GET.get("edit", "").isdecimal() and len(request.GET["edit"]) < 4:
        form = _edit_form(sheet_domain.load(table), int(request.GET["edit"]))
    elif request.GET.get("take"):
        initial = take_initial(request.GET, table.size)
        if initial is not None:
            form = GameEntryForm(sheet=sheet_domain.load(table), initial=initial)
    return _keeper_render(request, table, form)


def _save_game(request, table, actor, *, render_page=None):
    render_page = render_page or _keeper_render
    sheet = sheet_domain.load(table)
    form = GameEntryForm(request.POST, sheet=sheet)
    if not form.is_valid():
        return render_page(request, table, form, status=422)
    data = form.cleaned_data
    try:
        game = sheet_domain.save_row(
            table,
            actor,
            data["row"],
            number=data["number"],
            version=data["version"],
            client_id=data["client_id"],
            reason=data["reason"],
        )
    except Conflict as exc:
        retry = _retry_form(request.POST, exc, sheet_domain.load(table))
        return render_page(request, table, retry, conflict=_conflict(exc, table), status=409)
    except DomainError as exc:
        form.add_error(None, exc.message)
        return render_page(request, table, form, status=422, notice=exc.message, error=True)
    table.refresh_from_db()
    saved = sheet_domain.load(table)
    notice, warning = _saved_notice(game.number, saved)
    response = render_page(request, table, None, notice=notice, warning=warning, sheet=saved)
    # After a correction opened with ?edit=N the address bar must not reopen it on reload.
    response["HX-Replace-Url"] = request.path
    return response


def _saved_notice(number: int, sheet) -> tuple[str, bool]:
    """What the keeper reads after a save: plain "saved", or "saved, but" with what the checks
    found in that row (then as a warning: the row is stored, yet not right)."""
    texts = [text for _level, text in _findings_text(sheet.by_game.get(number, []))]
    if not texts:
        return _("Game %(number)s saved.") % {"number": number}, False
    notice = _("Game %(number)s saved, but: %(problems)s") % {
        "number": number,
        "problems": " ".join(texts),
    }
    return notice, True


def _retry_form(data, exc: Conflict, sheet) -> GameEntryForm:
    """The form again after a conflict, set up so that saving it once more is possible: a
    change is made on the stored version, a new game becomes the next game."""
    data = data.copy()
    data["client_id"] = str(uuid.uuid4())
    if data.get("version") and exc.theirs is not None:
        data["version"] = str(exc.theirs.version)
    else:
        data["version"] = ""
        data["number"] = str(sheet.next_number)
    return GameEntryForm(data, sheet=sheet)


def _conflict(exc: Conflict, table: Table) -> dict:
    def describe(kind, soloist, points):
        letter = LETTER_OF[GameKind(kind)]
        solo = f" ({_('soloist')} {soloist})" if soloist else ""
        return f"{letter}{solo}: " + " / ".join(str(v) for v in points)

    theirs = exc.theirs
    return {
        "message": exc.message,
        "number": exc.number,
        "mine": describe(exc.mine.kind, exc.mine.soloist, exc.mine.points) if exc.mine else None,
        "theirs": (
            describe(theirs.kind, theirs.soloist_position, theirs.points)
            if theirs is not None
            else _("removed")
        ),
        "theirs_version": theirs.version if theirs is not None else None,
    }


@require_POST
@_keeper_view
def keeper_delete(request, table):
    form = DeleteRowForm(request.POST)
    if not form.is_valid():
        return _keeper_render(request, table, notice=_("Nothing was removed."), status=422)
    try:
        sheet_domain.delete_last(
            table,
            sheet_domain.keeper_actor(table),
            number=form.cleaned_data["number"],
            version=form.cleaned_data["version"],
        )
    except Conflict as exc:
        return _keeper_render(request, table, conflict=_conflict(exc, table), status=409)
    except DomainError as exc:
        return _keeper_render(request, table, notice=exc.message, status=422, error=True)
    return _keeper_render(request, table, notice=_("The last game was removed."))


def _player_action(request, table, verb, done: str):
    """Submit or confirm on the token link: start number and the code of the player card;
    the domain checks the code and counts wrong ones."""
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        notice = _("Enter your start number and the confirmation code from your player card.")
        if "code" in form.errors and "start_number" not in form.errors:
            notice = form.errors["code"][0]
        number = form.cleaned_data.get("start_number")
        return _keeper_render(
            request, table, notice=notice, status=422, error=True, start_number=number
        )
    number = form.cleaned_data["start_number"]
    actor = sheet_domain.keeper_actor(table, number)
    try:
        verb(table, actor, code=form.cleaned_data["code"])
    except sheet_domain.TooManyCodes as exc:
        response = _keeper_render(
            request, table, notice=exc.message, status=429, error=True, start_number=number
        )
        response["Retry-After"] = str(exc.seconds)
        return response
    except DomainError as exc:
        return _keeper_render(
            request, table, notice=exc.message, status=422, error=True, start_number=number
        )
    return _keeper_render(request, table, notice=done)


@require_POST
@_keeper_view
def keeper_submit(request, table):
    notice = _(
        "Submitted. Another player of the table confirms the sheet with their start number "
        "and the code from their player card."
    )
    return _player_action(request, table, sheet_domain.submit, notice)


@require_POST
@_keeper_view
def keeper_confirm(request, table):
    return _player_action(request, table, sheet_domain.confirm, _("Confirmed. Thank you!"))


@require_POST
@_keeper_view
def keeper_time_up(request, table):
    try:
        sheet_domain.mark_time_up(table, sheet_domain.keeper_actor(table))
    except DomainError as exc:
        return _keeper_render(request, table, notice=exc.message, status=422, error=True)
    return _keeper_render(request, table)


@require_POST
@_keeper_view
def keeper_call(request, table):
    """The table calls a referee; one open call per table is enough."""
    form = RefereeCallForm(request.POST)
    if not form.is_valid():
        notice = _("The note is too long or contains control characters.")
        return _keeper_render(request, table, notice=notice, status=422, error=True)
    if not table.referee_calls.filter(handled_at__isnull=True).exists():
        RefereeCall.objects.create(
            table=table,
            game_number=table.games.count() + 1,
            note=form.cleaned_data["note"],
        )
    return _keeper_render(request, table, notice=_("A referee has been called to your table."))


@_keeper_view
def keeper_calculator(request, table):
    """The Spielwert-Rechner for this table: the tournament's rules, the table size and the
    next dealer preset, also when the tournament has no public pages."""
    step = sheet_domain.load(table).next_step
    initial = {"table_size": table.size, "dealer": step.dealer}
    back = reverse("keeper-sheet", args=[table.token])

    def take(calculation) -> dict | None:
        # Only a row of this table's size goes into its form. A solo is taken as the kind
        # the sheet expects of that soloist; the keeper can still change it before saving.
        points = calculation["points"]
        if len(points) != table.size:
            return None
        soloist = calculation["soloist"]
        kind = GameKind.NORMAL
        if calculation["solo"]:
            if step.vorfuehren == soloist:
                kind = GameKind.VORGEFUEHRT
            elif soloist in step.owing_before:
                kind = GameKind.PFLICHTSOLO
            else:
                kind = GameKind.LUSTSOLO
        return {
            "url": back,
            "kind": kind.value,
            "soloist": soloist,
            "points": points,
            "points_text": " ".join(str(v) for v in points),
        }

    return calculator_page(
        request,
        table.round.tournament,
        initial=initial,
        back_url=back,
        take=take,
        panel=True,
    )


@_keeper_view
def keeper_status(request, table):
    """The clock and state strip, polled by the phone page."""
    sheet = sheet_domain.load(table)
    context = sheet_context(sheet, token=table.token)
    return render(request, "tournament/sheet/_status.html", context)


# --- the tournament office --------------------------------------------------------------


def office_table(request, slug, number, table_number):
    tournament = get_officiated_tournament(request, slug)
    round_ = get_object_or_404(tournament.rounds, number=number)
    if round_.status not in (RoundStatus.RELEASED, RoundStatus.CLOSED):
        raise Http404
    table = get_object_or_404(
        Table.objects.select_related("round__tournament"), round=round_, number=table_number
    )
    return table


def _office_actor(request, table):
    return sheet_domain.office_actor(
        request.user, director=manages(request.user, table.round.tournament)
    )


def board_rows(round_):
    # load() reads each table's games and seats; the board shows them from there.
    tables = round_.tables.select_related("round__tournament").order_by("number")
    rows = []
    for table in tables:
        sheet = sheet_domain.load(table)
        if table.sheet_status != SheetStatus.OPEN:
            state = table.get_sheet_status_display()
        elif not sheet.games:
            state = _("not started")
        else:
            state = _("in progress")
        rows.append(
            {
                "table": table,
                "sheet": sheet,
                "names": [short_name(seat) for seat in sheet.seats],
                "state": state,
                "key": table.sheet_status if sheet.games or table.sheet_status != "open" else "new",
                "errors": sheet.error_count,
                "changed_after_confirmation": table.changed_after_confirmation,
                "seconds_left": sheet.clock.seconds_left(),
                "time_left": _minutes(sheet.clock.seconds_left()),
            }
        )
    return rows


@official_required
def board(request, slug, number):
    """Every table of a round at a glance, refreshed live."""
    tournament = get_officiated_tournament(request, slug)
    round_ = get_object_or_404(tournament.rounds, number=number)
    context = {
        "tournament": tournament,
        "round": round_,
        "rows": board_rows(round_),
        "is_director": manages(request.user, tournament),
    }
    template = "tournament/manage/board.html"
    if request.htmx:
        template = "tournament/manage/_board_table.html"
    return render(request, template, context)


def _needs_reason(table) -> bool:
    return table.round.status == RoundStatus.CLOSED or table.sheet_status != SheetStatus.OPEN


def _desk_render(
    request,
    table,
    grid=None,
    *,
    conflict=None,
    status=200,
    notice=None,
    reason_error=None,
    import_form=None,
):
    sheet = sheet_domain.load(table)
    if grid is None:
        grid = DeskGrid(sheet, cumulative=request.GET.get("cumulative") == "1")
    context = sheet_context(
        sheet,
        grid=grid,
        conflict=conflict,
        notice=notice,
        import_form=import_form or SheetFileForm(),
        # Each form on the page has its own ids (several have a "reason").
        extra_form=ExtraTimeForm(auto_id="extra_%s"),
        reason_form=ReasonForm(auto_id="reopen_%s"),
        is_director=manages(request.user, table.round.tournament),
        keeper_url=public_url(request, reverse("keeper-sheet", args=[table.token])),
        needs_reason=_needs_reason(table),
        reason_error=reason_error,
    )
    return render(request, "tournament/manage/sheet_desk.html", context, status=status)


@official_required
def desk_sheet(request, slug, number, table_number):
    """The office's grid: the whole sheet from the paper list at once."""
    table = office_table(request, slug, number, table_number)
    if request.method != "POST":
        return _desk_render(request, table)
    sheet = sheet_domain.load(table)
    grid = DeskGrid(sheet, request.POST)
    parsed = grid.parse()
    if parsed is None:
        return _desk_render(request, table, grid, status=422)
    rows, versions = parsed
    if _needs_reason(table) and not grid.reason:
        # The browser asks for it too, but a form sent without (an old page, no browser
        # check) gets the same answer from here, next to the field: nothing is saved.
        message = _("Changing a submitted sheet or a closed round needs a reason.")
        return _desk_render(request, table, grid, notice=message, reason_error=message, status=422)
    try:
        changed = sheet_domain.replace_rows(
            table, _office_actor(request, table), rows, versions, grid.reason
        )
    except Conflict as exc:
        return _desk_render(request, table, grid, conflict=_conflict(exc, table), status=409)
    except DomainError as exc:
        return _desk_render(request, table, grid, notice=exc.message, status=422)
    _report_saved(request, table, changed)
    url = reverse("manage:sheet-desk", args=[slug, number, table_number])
    if grid.cumulative:
        url += "?cumulative=1"
    return redirect(url)


@official_required
@require_POST
def sheet_import(request, slug, number, table_number):
    """A sheet file in the ``checksheet`` format replaces the table's rows."""
    table = office_table(request, slug, number, table_number)
    form = SheetFileForm(request.POST, request.FILES)
    if not form.is_valid():
        return _desk_render(request, table, notice=_("Choose a file."), status=422)
    upload = form.cleaned_data["file"]
    if _needs_reason(table) and not form.cleaned_data["reason"].strip():
        message = _("Changing a submitted sheet or a closed round needs a reason.")
        form.add_error("reason", message)
        return _desk_render(request, table, notice=message, status=422, import_form=form)
    try:
        size, rows = parse_sheet_file(
            upload.name, upload.read(), cumulative=form.cleaned_data["cumulative"]
        )
        if not rows:
            raise ImportFileError(_("The file holds no games."))
        if size != table.size:
            raise ImportFileError(
                _("The file is for a table of %(file)s, this table has %(table)s players.")
                % {"file": size, "table": table.size}
            )
        if table.games.exists() and not form.cleaned_data["replace"]:
            raise ImportFileError(
                _(
                    "This sheet already has games: tick “replace the rows already entered” "
                    "to overwrite them."
                )
            )
        inputs = _file_rows(rows)
        versions = {g.number: g.version for g in table.games.all()}
        changed = sheet_domain.replace_rows(
            table,
            _office_actor(request, table),
            inputs,
            versions,
            form.cleaned_data["reason"],
        )
    except (ImportFileError, DomainError) as exc:
        return _desk_render(request, table, notice=exc.message, status=422)
    _report_saved(request, table, changed)
    return redirect("manage:sheet-desk", slug, number, table_number)


def _rows_saved(count: int) -> str:
    return ngettext("%(count)s row saved.", "%(count)s rows saved.", count) % {"count": count}


def _report_saved(request, table, count: int) -> None:
    """Saved is not the same as right: with errors left the office reads "saved, but …" in
    the warning colour."""
    errors = sheet_domain.load(table).error_count
    if not errors:
        messages.success(request, _rows_saved(count))
        return
    but = ngettext(
        "but the sheet has %(errors)s error (marked ⚠ in the list).",
        "but the sheet has %(errors)s errors (marked ⚠ in the list).",
        errors,
    ) % {"errors": errors}
    messages.warning(request, f"{_rows_saved(count)[:-1]}, {but}")


def _file_rows(rows):
    inputs = []
    for expected, row in enumerate(rows, start=1):
        letter = str(row.kind)
        if letter == "S":
            raise ImportFileError(
                _("Game %(number)s: penalties are entered by the referees, not imported.")
                % {"number": row.game}
            )
        if row.game != expected:
            raise ImportFileError(
                _("Game numbers must run 1, 2, 3, …: expected %(expected)s here.")
                % {"expected": expected}
            )
        kind = sheet_domain.LETTERS[letter]
        soloist = row.soloist if kind != GameKind.NORMAL else None
        inputs.append(RowInput(kind.value, soloist, tuple(row.points)))
    return inputs


@official_required
@require_POST
def sheet_action(request, slug, number, table_number, action):
    """Submit (a sheet entered from paper), confirm, reopen, grant extra time, record the
    time limit."""
    table = office_table(request, slug, number, table_number)
    actor = _office_actor(request, table)
    director = manages(request.user, table.round.tournament)
    try:
        if action == "submit":
            sheet_domain.submit(table, actor)
            messages.success(request, _("Sheet submitted."))
        elif action == "confirm":
            if not director:
                raise PermissionDenied
            sheet_domain.confirm(table, actor)
            messages.success(request, _("Sheet confirmed."))
        elif action == "reopen":
            if not director:
                raise PermissionDenied
            form = ReasonForm(request.POST)
            reason = form.cleaned_data["reason"] if form.is_valid() else ""
            sheet_domain.reopen(table, actor, reason)
            messages.success(request, _("Sheet reopened."))
        elif action == "extra-time":
            form = ExtraTimeForm(request.POST)
            if not form.is_valid():
                raise DomainError(_("Enter the minutes and a reason."))
            sheet_domain.grant_extra_time(
                table, actor, form.cleaned_data["minutes"], form.cleaned_data["reason"]
            )
            messages.success(request, _("Extra time granted."))
        else:  # time-up
            sheet_domain.mark_time_up(table, actor)
            messages.success(request, _("Time limit recorded."))
    except DomainError as exc:
        messages.error(request, exc.message)
    if request.POST.get("next") == "board":
        return redirect("manage:board", slug, number)
    return redirect("manage:sheet-desk", slug, number, table_number)


@director_required
@require_POST
def round_close(request, slug, number):
    tournament = get_managed_tournament(request, slug)
    round_ = get_object_or_404(tournament.rounds, number=number)
    try:
        sheet_domain.close_round(round_, request.user)
        messages.success(request, _("Round %(number)s closed.") % {"number": number})
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("manage:board", slug, number)


@official_required
def sheet_history(request, slug, number, table_number):
    """Every create, change and removal of the table's rows: who, when, before, after, why."""
    table = office_table(request, slug, number, table_number)
    records = list(
        Game.history.filter(table_id=table.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    previous: dict[int, str] = {}
    entries = []
    for record in records:
        after = history_points(record, table.size)
        entries.append(
            {
                "record": record,
                "role": role_label(record.history_role),
                "who": sheet_domain.readable(record.history_change_reason or "")
                or (record.history_user.get_username() if record.history_user else ""),
                "before": previous.get(record.id, ""),
                "after": "" if record.history_type == "-" else after,
            }
        )
        previous[record.id] = after
    entries.reverse()
    context = {
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "entries": entries,
    }
    return render(request, "tournament/manage/sheet_history.html", context)


def history_points(record, size: int) -> str:
    values = [record.p1, record.p2, record.p3, record.p4, record.p5][:size]
    letter = LETTER_OF.get(record.kind, "?")
    solo = f" ({record.soloist_position})" if record.soloist_position else ""
    return f"{letter}{solo} " + " / ".join(str(v) for v in values)
