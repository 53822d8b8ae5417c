"""The gate: what anybody on the hall's Wi-Fi requests never stalls a keeper.

The site's threads serve list keepers (the table links, ``/tisch/…``), the directors and
referees (logged in) and everybody else. Keepers and logged-in users always pass. Anonymous
requests for pages share ``PUBLIC_CONCURRENCY`` places: at most that many of them run at
once, ``PUBLIC_QUEUE`` more wait up to ``PUBLIC_HOLD`` seconds for a place, and the rest are
turned away with 429 ("busy, try again") and a Retry-After, after a short pause
(``PUBLIC_REFUSE_DELAY``, for at most a few at a time: a client in a loop then asks a few
times a second, not hundreds); a page's own refresh (htmx) gets 204, so the page in the
phone's hand stays as it is until the next poll. An admitted request waits while a keeper's
save is in progress (up to ``KEEPER_FIRST`` seconds). So a flood from the Wi-Fi holds at
most PUBLIC_CONCURRENCY + PUBLIC_QUEUE + 8 of the server's threads (the hall serves with
more, tournament/management/commands/hall.py), and the keepers' saves find the processor
and the database free but for each other.

Static files pass (WhiteNoise answers them before this), and so do the login page and the
language switch: a director must be able to log in during a flood. So do a hall's
publications to the results service (``protocol.PATH``): a write from a club's laptop, not a
reader; the view has a lane of its own for them (SERVICE_PUBLISH_CONCURRENCY) and refuses an
unknown key on one indexed query before it reads a byte of the body, so a flood of made-up
publications is cheaper to turn away than a page.
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language

from ..publishing import protocol

# Paths that are never held: the keepers' table links, the projector's secret link, logging in,
# switching the language.
PASS = ("/tisch/", "/leinwand/", "/login/", "/i18n/", "/static/")
KEEPERS = "/tisch/"
SLOWED_AT_MOST = 8


class Gate:
    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.places = threading.BoundedSemaphore(settings.PUBLIC_CONCURRENCY)
        self.lock = threading.Lock()
        self.keepers = 0  # keepers' requests in progress
        self.keepers_done = threading.Condition(self.lock)
        self.waiting = 0
        self.slowed = 0  # turned-away requests being answered slowly
        self.refused = 0  # for the load test's report
        self.pages: dict[str | None, str] = {}

    def __call__(self, request):
        if request.path.startswith(KEEPERS) and request.method == "POST":
            return self._keeper(request)  # a save: public requests give way
        if request.path == protocol.PATH:
            return self.get_response(request)  # a hall publishing: its own lane (see above)
        if request.path.startswith(PASS) or request.user.is_authenticated:
            return self.get_response(request)
        with self.lock:
            queue_full = self.waiting >= settings.PUBLIC_QUEUE
            if not queue_full:
                self.waiting += 1
        if queue_full:
            return self._busy(request)
        try:
            admitted = self.places.acquire(timeout=settings.PUBLIC_HOLD)
        finally:
            with self.lock:
                self.waiting -= 1
        if not admitted:
            return self._busy(request)
        try:
            # Keepers first: an admitted request waits (up to KEEPER_FIRST seconds) while a
            # keeper's save is in progress, so that the save has the processor.
            with self.lock:
                self.keepers_done.wait_for(lambda: self.keepers == 0, settings.KEEPER_FIRST)
            return self.get_response(request)
        finally:
            self.places.release()

    def _keeper(self, request):
        with self.lock:
            self.keepers += 1
        try:
            return self.get_response(request)
        finally:
            with self.lock:
                self.keepers -= 1
                if not self.keepers:
                    self.keepers_done.notify_all()

    def _busy_page(self) -> str:
        """The "busy" page in the visitor's language: a page of its own (nothing of the
        visitor's in it), rendered once per language, so that turning a flood away costs
        the server next to nothing."""
        language = get_language()
        page = self.pages.get(language)
        if page is None:
            page = self.pages[language] = render_to_string("busy.html")
        return page

    def _busy(self, request) -> HttpResponse:
        with self.lock:
            self.refused += 1
            slow = self.slowed < SLOWED_AT_MOST
            self.slowed += slow
        if slow:
            # A client that asks again at once is answered after a pause: a flood in a
            # loop asks a few times a second instead of hundreds (a sleeping thread costs
            # no processor; at most SLOWED_AT_MOST threads sleep, the rest are answered
            # at once).
            time.sleep(settings.PUBLIC_REFUSE_DELAY)
            with self.lock:
                self.slowed -= 1
        if getattr(request, "htmx", False) or request.headers.get("HX-Request"):
            return HttpResponse(status=204)  # the page keeps what it shows
        response = HttpResponse(self._busy_page(), status=429)
        response["Retry-After"] = "5"
        response["Cache-Control"] = "no-store"
        return response
