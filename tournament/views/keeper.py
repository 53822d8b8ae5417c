"""The list keeper's page behind the table's secret link: enter the games on a phone,
submit and confirm the sheet, call a referee, the calculator and the clock."""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from dataclasses import replace

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..base import ratelimit
from ..domain import referees
from ..errors import DomainError
from ..forms.calculator import calculator_context, calculator_template
from ..forms.penalties import RefereeCallForm
from ..forms.sheets import ConfirmForm, DeleteRowForm, GameEntryForm, edit_initial, take_initial
from ..models import GameKind, RoundStatus, SheetStatus, Table
from ..queries import sheets as reads
from ..sheets import codes, verbs
from ..sheets.display import conflict_context, findings_text, outbox_data, sheet_context
from ..sheets.verbs import Conflict
from ..web import devices

# Seconds after which a table's page asks again while its round is not released.
NOT_RELEASED_REFRESH = 10

# Wrong table links: after this many from one address within the window, 429.
TOKEN_FAILURES, TOKEN_WINDOW = 20, 300

# The browser on a table's link: a signed random id, under which its wrong confirmation
# codes are counted (with its address: tournament/sheets/codes.py, which also bounds how many
# new ids a table hands out).
BROWSER_COOKIE = "kreuzdame_table_browser"
BROWSER_SECONDS = 400 * 24 * 3600
_BROWSER_SALT = "tournament.views.keeper.browser"


def _browser(request) -> str | None:
    value = request.get_signed_cookie(
        BROWSER_COOKIE, default=None, salt=_BROWSER_SALT, max_age=BROWSER_SECONDS
    )
    return value if value and len(value) <= 64 else None


def guesser(request) -> str:
    """Who gives a confirmation code, as its wrong ones are counted: the browser at its
    address, or, without the browser's cookie, the address alone (hashed: the key is
    stored)."""
    address = ratelimit.network(request)  # an IPv6 /64 is one address here
    browser = _browser(request)
    who = f"browser:{browser}:{address}" if browser else f"address:{address}"
    return hashlib.sha256(who.encode()).hexdigest()[:40]


def _give_browser_id(request, table: Table, response):
    """A phone without the table browser's cookie gets one, within the table's limit."""
    if _browser(request) is not None or response.status_code >= 400:
        return response
    if codes.may_give_browser_id(table, ratelimit.network(request)):
        response.set_signed_cookie(
            BROWSER_COOKIE,
            secrets.token_urlsafe(18),
            salt=_BROWSER_SALT,
            max_age=BROWSER_SECONDS,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


# What every keeper page reads of its table, in one query (also after a save).
TABLE_WITH_SHEET = Table.objects.select_related("round__tournament", "sheet")


def _keeper_table(request, token: str) -> Table:
    """The table behind a link, while its round is running or after it was closed (then
    :class:`_Closed`); :class:`_NotReleased` for a round drawn but not released yet; 404 for
    unknown links (also a table of a round drawn again: its link died). Only unknown
    links count against the address (429 after too many): a real link always works, also
    from a hall where every phone shares one address."""
    table = TABLE_WITH_SHEET.filter(token=token).first()
    if table is not None and table.round.tournament.club_id is not None:
        # A club's copy on the results service: its lists are kept in the club's hall, so
        # its table links lead nowhere here (a game saved would vanish with the next copy).
        raise Http404
    if table is not None:
        if table.round.status == RoundStatus.CLOSED:
            raise _Closed(table)
        if table.round.status != RoundStatus.RELEASED:
            raise _NotReleased(table)
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


class _NotReleased(Exception):
    def __init__(self, table: Table) -> None:
        self.table = table


class _Closed(Exception):
    def __init__(self, table: Table) -> None:
        self.table = table


def _keeper_view(view):
    def wrapper(request, token, *args, **kwargs):
        try:
            table = _keeper_table(request, token)
        except _TooMany as exc:
            return ratelimit.too_many(request, exc.seconds)
        except _Closed as exc:
            return _revoked_device(request, exc.table) or _closed_render(request, exc.table)
        except _NotReleased as exc:
            return _not_released_render(request, exc.table)
        refused = _revoked_device(request, table)
        if refused is not None:
            return refused
        return _give_browser_id(request, table, view(request, table, *args, **kwargs))

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
    if sheet is None:  # a caller that passes the sheet has just read the table afresh
        table.refresh_from_db(from_queryset=TABLE_WITH_SHEET)
        sheet = reads.load(table)
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
        editable=table.sheet.status == SheetStatus.OPEN,
        open_call=table.referee_calls.filter(handled_at__isnull=True).first(),
        outbox=outbox_data(table, sheet),
        **extra,
    )
    template = "tournament/sheet/keeper.html"
    if request.htmx and request.htmx.target == "sheet":
        template = "tournament/sheet/_keeper_body.html"
    return render(request, template, context, status=status)


def _not_released_render(request, table):
    """A table's QR code scanned before its round is released (the pack laid out early):
    the page says so, shows nobody's name (the seats are not public yet) and reloads itself
    until the round is released, then it is the keeper's page. Everything else of the link
    (a save, the calculator, the status) is not there yet: 404."""
    page = request.resolver_match and request.resolver_match.url_name == "keeper-sheet"
    if not page or request.method not in ("GET", "HEAD"):
        raise Http404
    context = {"table": table, "round": table.round, "tournament": table.round.tournament}
    response = render(request, "tournament/sheet/not_released.html", context)
    response["Cache-Control"] = "no-store"
    # The browser asks again by itself (the Refresh header: no JavaScript, plain http).
    response["Refresh"] = str(NOT_RELEASED_REFRESH)
    return response


def _closed_render(request, table):
    """An old link after its round was closed: the table's final sheet, read-only, with a
    line saying so. Whatever was sent to it (a game saved late, a submit, a poll) changes
    nothing: 410, and an htmx page reloads itself to show this. The phone's outbox shows the
    games it still holds as not on the list (outbox.js, data-closed)."""
    sheet = reads.load(table)
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
        outbox=outbox_data(table, sheet),
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


def _revoked_device(request, table):
    """A tablet whose pairing the director revoked (tournament/web/devices.py) is refused at its
    tournament's table links: the page says so, and games it still holds are not taken
    silently. Like a closed round, an answer to a POST is 410 (the outbox then reloads the
    page, which lists them as not on the list) and htmx reloads the page. None for every
    other browser."""
    device = devices.revoked_at_table(request, table)
    if device is None:
        return None
    status = 410 if request.method == "POST" else 403
    context = {"device": device, "table": table, "token": table.token}
    response = render(request, "tournament/device/revoked.html", context, status=status)
    if request.htmx:
        response["HX-Refresh"] = "true"
    return response


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
        return _save_game(request, table, verbs.keeper_actor(table))
    form = None
    if request.GET.get("edit", "").isdecimal() and len(request.GET["edit"]) < 4:
        form = _edit_form(reads.load(table), int(request.GET["edit"]))
    elif request.GET.get("take"):
        initial = take_initial(request.GET, table.size)
        if initial is not None:
            form = GameEntryForm(sheet=reads.load(table), initial=initial)
    return _keeper_render(request, table, form)


def _save_game(request, table, actor):
    # The sheet is read once: the form is checked against it, and after the save it is shown
    # with the stored game put in (reads.with_game, which reads it anew only if another row
    # changed in between). A conflict means the sheet changed meanwhile: it is read again,
    # once, for the retry form and the page.
    sheet = reads.load(table)
    form = GameEntryForm(request.POST, sheet=sheet)
    if not form.is_valid():
        return _keeper_render(request, table, form, status=422, sheet=sheet)
    data = form.cleaned_data
    try:
        game = verbs.save_row(
            table,
            actor,
            data["row"],
            number=data["number"],
            version=data["version"],
            client_id=data["client_id"],
            reason=data["reason"],
        )
    except Conflict as exc:
        table.refresh_from_db(from_queryset=TABLE_WITH_SHEET)
        now = reads.load(table)
        retry = _retry_form(request.POST, exc, now)
        return _keeper_render(
            request, table, retry, conflict=conflict_context(exc), status=409, sheet=now
        )
    except DomainError as exc:
        form.add_error(None, exc.message)
        return _keeper_render(request, table, form, status=422, notice=exc.message, error=True)
    table.refresh_from_db(from_queryset=TABLE_WITH_SHEET)
    saved = reads.with_game(sheet, game, table)
    notice, warning = _saved_notice(game.number, saved)
    response = _keeper_render(request, table, None, notice=notice, warning=warning, sheet=saved)
    # After a correction opened with ?edit=N the address bar must not reopen it on reload.
    response["HX-Replace-Url"] = request.path
    return response


def _saved_notice(number: int, sheet) -> tuple[str, bool]:
    """What the keeper reads after a save: plain "saved", or "saved, but" with what the checks
    found in that row (then as a warning: the row is stored, yet not right)."""
    texts = [text for _level, text in findings_text(sheet.by_game.get(number, []))]
    if not texts:
        return _("Game %(number)s saved.") % {"number": number}, False
    notice = _("Game %(number)s saved, but: %(problems)s") % {
        "number": number,
        "problems": " ".join(texts),
    }
    return notice, True


def _retry_form(data, exc: Conflict, sheet) -> GameEntryForm:
    """The form again after a conflict, set up so that saving it once more is possible: on
    the stored version of that game, whether the phone changed it or wrote it new (the office
    stored the same game meanwhile: saving the phone's row replaces it, discarding keeps it,
    never both as two games); a game whose number is not on the sheet any more becomes the
    next game."""
    data = data.copy()
    data["client_id"] = str(uuid.uuid4())
    if exc.theirs is not None:
        data["version"] = str(exc.theirs.version)
        data["number"] = str(exc.number)
    else:
        data["version"] = ""
        data["number"] = str(sheet.next_number)
    return GameEntryForm(data, sheet=sheet)


@require_POST
@_keeper_view
def keeper_delete(request, table):
    form = DeleteRowForm(request.POST)
    if not form.is_valid():
        return _keeper_render(request, table, notice=_("Nothing was removed."), status=422)
    try:
        verbs.delete_last(
            table,
            verbs.keeper_actor(table),
            number=form.cleaned_data["number"],
            version=form.cleaned_data["version"],
        )
    except Conflict as exc:
        return _keeper_render(request, table, conflict=conflict_context(exc), status=409)
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
            notice = str(form.errors["code"][0])
        number = form.cleaned_data.get("start_number")
        return _keeper_render(
            request, table, notice=notice, status=422, error=True, start_number=number
        )
    number = form.cleaned_data["start_number"]
    actor = replace(verbs.keeper_actor(table, number), guesser=guesser(request))
    try:
        verb(table, actor, code=form.cleaned_data["code"])
    except codes.TooManyCodes as exc:
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
    return _player_action(request, table, verbs.submit, notice)


@require_POST
@_keeper_view
def keeper_confirm(request, table):
    return _player_action(request, table, verbs.confirm, _("Confirmed. Thank you!"))


@require_POST
@_keeper_view
def keeper_time_up(request, table):
    try:
        verbs.mark_time_up(table, verbs.keeper_actor(table))
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
    referees.call_referee(table, verbs.keeper_actor(table), form.cleaned_data["note"])
    return _keeper_render(request, table, notice=_("A referee has been called to your table."))


@_keeper_view
def keeper_calculator(request, table):
    """The Spielwert-Rechner for this table: the tournament's rules, the table size and the
    next dealer preset, also when the tournament has no public pages."""
    sheet = reads.load(table)
    initial = {"table_size": table.size, "dealer": sheet.next_step.dealer}
    back = reverse("keeper-sheet", args=[table.token])

    def take(calculation) -> dict | None:
        # Only a row of this table's size goes into its form. A solo is taken as the kind
        # the sheet expects of that soloist; the keeper can still change it before saving.
        points = calculation["points"]
        if len(points) != table.size:
            return None
        soloist = calculation["soloist"]
        kind = sheet.expected_solo(soloist) if calculation["solo"] else GameKind.NORMAL
        return {
            "url": back,
            "kind": kind.value,
            "soloist": soloist,
            "points": points,
            "points_text": " ".join(str(v) for v in points),
            # The facts go along: saved with the row (forms/sheets.py drops them when the
            # keeper changes the row before saving).
            "facts": json.dumps(calculation["facts"], separators=(",", ":")),
        }

    context = calculator_context(
        request.GET, table.round.tournament, initial=initial, take=take, panel=True
    )
    context.update(back_url=back, action=request.path)
    target = request.htmx.target if request.htmx else None
    template = calculator_template(target, htmx=bool(request.htmx), panel=True)
    return render(request, template, context)


@_keeper_view
def keeper_status(request, table):
    """The clock and state strip, polled by the phone page."""
    sheet = reads.load(table)
    context = sheet_context(sheet, token=table.token)
    return render(request, "tournament/sheet/_status.html", context)
