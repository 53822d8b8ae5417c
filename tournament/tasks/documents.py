"""Heavy documents, made in the background: the print pack, the player cards, the standings,
rounds and series as PDF or Excel file, the results for the federation.

A document is one file of one object (tournament or series) in one state of its data (its
``version``) and one language. :func:`request` finds it or creates it and puts it in the queue
(django-tasks, database backend: the worker is ``manage.py worker``); the unique constraint
makes a second request for the same state join the first, so at most one render of it runs.
:func:`render` is the task's body: it calls the exporters in ``tournament/exports``. A
document whose data changed since (:func:`outdated`) is never served; :func:`respond` answers
a download link with the file when it is ready and current, else with a page that shows the
progress and fetches the file when it is ready.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render as render_page
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise
from django_tasks import task

from ..base import ratelimit
from ..base.versions import series_key
from ..exports import PdfUnavailable, cards, certificates, federation, printpack, xlsx
from ..exports import documents as pdfs
from ..exports import downloads as names
from ..exports import prizes as payout
from ..exports.export import PDF, XLSX, Export, download
from ..models import (
    CertificateDesign,
    Document,
    DocumentStatus,
    Prize,
    PrizeCategory,
    Round,
    Series,
    Tournament,
)
from ..queries import fees as fees_domain
from ..queries import series as series_domain

logger = logging.getLogger(__name__)

# A render that has not finished after this long is taken to have died with its worker and
# is queued again by the next request.
STALE = timedelta(minutes=10)

Subject = Tournament | Series
T = TypeVar("T")  # what a tournament's function gives: a file or its name


@dataclass(frozen=True)
class Kind:
    title: StrOrPromise  # lazy: in the reader's language
    name: Callable[[Subject, str], str]  # the download's file name (exports/downloads.py)
    content_type: str
    make: Callable[[Subject, str], bytes]
    # The print pack and the cards carry secrets (table links, players' codes), the results for
    # the federation DDV member numbers: never cached.
    secret: bool = False
    series_public_only: bool | None = None  # a series' kinds: its public table or all of it
    # The prize list's kinds (payout sheet, certificates): made from the prizes and the fees
    # besides the results (see :func:`current_version`).
    prizes: bool = False

    def export(self, subject: Subject, variant: str) -> Export:
        return Export(self.name(subject, variant), self.content_type, self.make(subject, variant))


def _print_pack(tournament: Subject, variant: str) -> bytes:
    number, base_url = variant.split(" ", 1)
    round_ = Round.objects.select_related("tournament").get(
        tournament_id=tournament.pk, number=int(number)
    )
    return printpack.print_pack(round_, base_url)


def _print_pack_name(tournament: Subject, variant: str) -> str:
    assert isinstance(tournament, Tournament)
    return names.print_pack_name(tournament, int(variant.split(" ", 1)[0]))


def _series(public_only: bool, fmt: str) -> Callable[[Subject, str], bytes]:
    def make(found: Subject, variant: str) -> bytes:
        assert isinstance(found, Series)
        standings = series_domain.compute(found, public_only=public_only)
        return xlsx.series_workbook(standings) if fmt == "xlsx" else pdfs.series_pdf(standings)

    return make


def _series_name(public_only: bool, fmt: str) -> Callable[[Subject, str], str]:
    def name(found: Subject, variant: str) -> str:
        assert isinstance(found, Series)
        return names.series_name(found, fmt, public_only=public_only)

    return name


def _t(function: Callable[[Tournament], T]) -> Callable[[Subject, str], T]:
    def make(tournament: Subject, variant: str) -> T:
        assert isinstance(tournament, Tournament)
        return function(tournament)

    return make


def _list(what: str, fmt: str) -> Callable[[Subject, str], str]:
    return _t(lambda t: names.list_name(t, what, fmt))


def _cards(tournament: Subject, variant: str) -> bytes:
    """Every player's card, or (variant "<site> 3 7 12") only those start numbers' cards;
    the site's address is for the QR codes of the players' pages."""
    assert isinstance(tournament, Tournament)
    numbers = cards.variant_numbers(variant)
    return cards.player_cards_pdf(tournament, numbers, cards.variant_base_url(variant))


def _cards_name(tournament: Subject, variant: str) -> str:
    assert isinstance(tournament, Tournament)
    return names.cards_name(tournament, cards.variant_numbers(variant))


def _certificates(everyone: bool) -> Callable[[Subject, str], bytes]:
    """The certificates of the prize winners or of every ranked player; the variant is the
    design's version (a new design makes new files), the design itself is read now."""
    which = certificates.EVERYONE if everyone else certificates.WINNERS

    def make(tournament: Subject, variant: str) -> bytes:
        assert isinstance(tournament, Tournament)
        return certificates.certificates_pdf(tournament, which)

    return make


def certificates_variant() -> str:
    """The variant of a certificates document: the design's version now."""
    return str(CertificateDesign.current().version)


KINDS: dict[str, Kind] = {
    "standings-pdf": Kind(
        gettext_lazy("Standings"),
        _list("standings", "pdf"),
        PDF,
        _t(lambda t: pdfs.standings_pdf(t)),
    ),
    "teams-pdf": Kind(
        gettext_lazy("Teams"),
        _list("teams", "pdf"),
        PDF,
        _t(lambda t: pdfs.standings_pdf(t, teams_only=True)),
    ),
    "rounds-pdf": Kind(gettext_lazy("Rounds"), _list("rounds", "pdf"), PDF, _t(pdfs.rounds_pdf)),
    "standings-xlsx": Kind(
        gettext_lazy("Standings"),
        _list("standings", "xlsx"),
        XLSX,
        _t(lambda t: xlsx.workbook(t)),
    ),
    "teams-xlsx": Kind(
        gettext_lazy("Teams"), _list("teams", "xlsx"), XLSX, _t(lambda t: xlsx.workbook(t, "teams"))
    ),
    "rounds-xlsx": Kind(
        gettext_lazy("Rounds"),
        _list("rounds", "xlsx"),
        XLSX,
        _t(lambda t: xlsx.workbook(t, "rounds")),
    ),
    "results-xlsx": Kind(
        gettext_lazy("Results for the federation"),
        _t(lambda t: names.results_name(t, "xlsx")),
        XLSX,
        _t(federation.results_workbook),
        secret=True,  # DDV member numbers
    ),
    "payout-pdf": Kind(
        gettext_lazy("Payout sheet"),
        _t(lambda t: names.payout_name(t, "pdf")),
        PDF,
        _t(payout.payout_pdf),
        secret=True,  # real names and the cash box: an office document
        prizes=True,
    ),
    "payout-xlsx": Kind(
        gettext_lazy("Payout sheet"),
        _t(lambda t: names.payout_name(t, "xlsx")),
        XLSX,
        _t(payout.payout_workbook),
        secret=True,
        prizes=True,
    ),
    "certificates-pdf": Kind(
        gettext_lazy("Certificates"),
        _t(lambda t: names.certificates_name(t, everyone=False)),
        PDF,
        _certificates(everyone=False),
        secret=True,
        prizes=True,
    ),
    "certificates-all-pdf": Kind(
        gettext_lazy("Certificates"),
        _t(lambda t: names.certificates_name(t, everyone=True)),
        PDF,
        _certificates(everyone=True),
        secret=True,
        prizes=True,
    ),
    "printpack": Kind(
        gettext_lazy("Print pack (PDF)"), _print_pack_name, PDF, _print_pack, secret=True
    ),
    "cards": Kind(
        gettext_lazy("Player cards (PDF)"),
        _cards_name,
        PDF,
        _cards,
        secret=True,
    ),
    "series-pdf": Kind(
        gettext_lazy("Series"),
        _series_name(True, "pdf"),
        PDF,
        _series(True, "pdf"),
        series_public_only=True,
    ),
    "series-xlsx": Kind(
        gettext_lazy("Series"),
        _series_name(True, "xlsx"),
        XLSX,
        _series(True, "xlsx"),
        series_public_only=True,
    ),
    "series-all-pdf": Kind(
        gettext_lazy("Series"),
        _series_name(False, "pdf"),
        PDF,
        _series(False, "pdf"),
        series_public_only=False,
    ),
    "series-all-xlsx": Kind(
        gettext_lazy("Series"),
        _series_name(False, "xlsx"),
        XLSX,
        _series(False, "xlsx"),
        series_public_only=False,
    ),
}


def current_version(kind: str, subject: Subject) -> str:
    """The state of the data ``kind`` is made from, read now: the tournament's version; for a
    series a fingerprint of its version, its tournaments' versions and the date (its time
    window moves with the date)."""
    if isinstance(subject, Tournament) and KINDS[kind].prizes:
        return _prizes_version(subject)
    if isinstance(subject, Tournament):
        # The results version: a file takes seconds to make, and the keepers' game saves
        # (which move only ``version``) would outdate it before it is ready. What the files
        # show (closed rounds, confirmed sheets, seats, entries) moves the results version.
        return str(Tournament.objects.values_list("results_version", flat=True).get(pk=subject.pk))
    fresh = Series.objects.get(pk=subject.pk)
    public_only = KINDS[kind].series_public_only
    state = repr((series_key(fresh, public_only=bool(public_only)), timezone.localdate()))
    return hashlib.sha256(state.encode()).hexdigest()[:32]


def _prizes_version(tournament: Tournament) -> str:
    """The state of the prize list: the results version (standings, entries with their fees
    and attributes, the tournament's settings), the prize categories and prizes and the fee
    sums, read now. Not the tournament's ``version``: the keepers' game saves move it all day
    and would outdate every file before it is made."""
    results = Tournament.objects.values_list("results_version", flat=True).get(pk=tournament.pk)
    fields = ("pk", "name", "order", "measure", "ties", "sex", "born_from", "born_until",
              "guests_only", "newcomers_only", "also_for_winners")  # fmt: skip
    categories = PrizeCategory.objects.filter(tournament=tournament).order_by("pk")
    prizes = Prize.objects.filter(category__tournament=tournament).order_by("pk")
    state = (
        results,
        list(categories.values_list(*fields)),
        list(prizes.values_list("pk", "category_id", "place", "kind", "value", "goods")),
        fees_domain.fee_sums(tournament),
    )
    return hashlib.sha256(repr(state).encode()).hexdigest()[:32]


def _subject(document: Document) -> Subject:
    if document.tournament_id is not None:
        return Tournament.objects.get(pk=document.tournament_id)
    return Series.objects.get(pk=document.series_id or 0)


def _of(subject: Subject) -> dict:
    if isinstance(subject, Tournament):
        return {"tournament": subject}
    return {"series": subject}


def outdated(document: Document) -> bool:
    """Whether the data behind ``document`` changed since it was requested: such a document
    is never served (a newer one is made instead)."""
    try:
        return document.version != current_version(document.kind, _subject(document))
    except (Tournament.DoesNotExist, Series.DoesNotExist):
        return True


def path_of(document: Document) -> Path:
    return Path(settings.DOCUMENTS_DIR) / document.file_name


def request(kind: str, subject: Subject, language: str, variant: str = "") -> Document:
    """The document ``kind`` of ``subject`` for the current state of its data in
    ``language``: the one made or being made, else a new one, queued."""
    version = current_version(kind, subject)
    wanted: dict[str, Any] = {
        "kind": kind,
        "variant": variant,
        "version": version,
        "language": language,
    }
    # Mostly the document is there (made or being made): a plain read, no write lock.
    document = Document.objects.filter(**wanted, **_of(subject)).first()
    created = False
    try:
        if document is None:
            with transaction.atomic():
                document, created = Document.objects.get_or_create(**wanted, **_of(subject))
    except IntegrityError:  # another request created it at the same moment: join it
        document, created = Document.objects.get(**wanted, **_of(subject)), False
    if created:
        render_document.enqueue(document.pk)
        document.refresh_from_db()
    elif _stale(document):
        # Its worker died while making it: queue it again (once, whoever comes first).
        requeued = Document.objects.filter(pk=document.pk, changed_at=document.changed_at)
        if requeued.update(status=DocumentStatus.QUEUED, changed_at=timezone.now()):
            render_document.enqueue(document.pk)
        document.refresh_from_db()
    return document


def _stale(document: Document) -> bool:
    unfinished = document.status in (DocumentStatus.QUEUED, DocumentStatus.RUNNING)
    return unfinished and document.changed_at < timezone.now() - STALE


def retry(document: Document) -> None:
    """Make a failed document again (the director asked to)."""
    again = Document.objects.filter(pk=document.pk, status=DocumentStatus.FAILED)
    if again.update(status=DocumentStatus.QUEUED, error="", changed_at=timezone.now()):
        render_document.enqueue(document.pk)


def render(document: Document) -> None:
    """Make the file of ``document`` (the task's body). A document that is taken by another
    worker or finished is left alone; one whose data changed meanwhile is dropped unmade.
    A failure is kept as the document's error text for its page, the traceback in the log."""
    mine = Document.objects.filter(pk=document.pk, status=DocumentStatus.QUEUED)
    if not mine.update(status=DocumentStatus.RUNNING, changed_at=timezone.now()):
        return
    if outdated(document):
        document.delete()
        return
    kind = KINDS[document.kind]
    try:
        with translation.override(document.language):
            made = kind.export(_subject(document), document.variant)
    except PdfUnavailable as exc:
        _failed(document, str(exc.message))
        return
    except Exception:
        logger.exception("document %s (%s) could not be made", document.pk, document.kind)
        with translation.override(document.language):
            _failed(document, _("The file could not be made: the error is in the server's log."))
        return
    folder = Path(settings.DOCUMENTS_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{document.pk}-{secrets.token_hex(8)}{Path(made.filename).suffix}"
    partial = folder / (name + ".part")
    assert isinstance(made.data, bytes)  # what an exporter returns
    partial.write_bytes(made.data)
    partial.replace(folder / name)  # readers see the whole file or none
    Document.objects.filter(pk=document.pk).update(
        status=DocumentStatus.READY,
        file_name=name,
        size=len(made.data),
        finished_at=timezone.now(),
        changed_at=timezone.now(),
    )
    prune(document)


def _failed(document: Document, error: str) -> None:
    Document.objects.filter(pk=document.pk).update(
        status=DocumentStatus.FAILED, error=error, finished_at=timezone.now()
    )


def prune(document: Document) -> int:
    """Remove the finished documents of the same kind, object and language made from other
    states, with their files: what is kept on disk is bounded by what exists. Returns how
    many were removed."""
    same = Document.objects.filter(
        kind=document.kind,
        tournament=document.tournament_id,
        series=document.series_id,
        language=document.language,
        status__in=[DocumentStatus.READY, DocumentStatus.FAILED],
    ).exclude(version=document.version)
    if document.kind == "printpack":  # one per round
        same = same.filter(variant__startswith=document.variant.split(" ", 1)[0] + " ")
    if KINDS[document.kind].prizes:  # the certificates of an older design too
        same = same.model.objects.filter(
            kind=document.kind,
            tournament=document.tournament_id,
            language=document.language,
            status__in=[DocumentStatus.READY, DocumentStatus.FAILED],
        ).exclude(pk=document.pk)
    removed = 0
    for old in same:
        if old.file_name:
            path_of(old).unlink(missing_ok=True)
        old.delete()
        removed += 1
    return removed


@task(queue_name="documents")
def render_document(document_id: int) -> None:
    document = Document.objects.filter(pk=document_id).first()
    if document is not None:
        render(document)


def print_pack_variant(round_: Round, base_url: str) -> str:
    return f"{round_.number} {base_url}"


def prepare_print_packs(rounds: list[Round], base_url: str | None) -> None:
    """Start the print packs of freshly drawn rounds (PRINT_PACK_ON_DRAW), so that they are
    ready when the director asks; without the site's address (no request, no SITE_URL) the
    QR codes cannot be made yet and the pack waits for the director's request."""
    base_url = base_url or (settings.SITE_URL.rstrip("/") + "/" if settings.SITE_URL else "")
    if not settings.PRINT_PACK_ON_DRAW or not base_url:
        return
    language = settings.LANGUAGE_CODE
    for round_ in rounds:
        request("printpack", round_.tournament, language, print_pack_variant(round_, base_url))


# The pages.


def address_key(request_: HttpRequest) -> str:
    """The rate-limit key of the client's network (see :func:`ratelimit.network`)."""
    return f"download:{ratelimit.network(request_)}"


downloads = ratelimit.InMemory()


def _limited(request_: HttpRequest) -> HttpResponse | None:
    """The 429 page when an anonymous address asked for too many downloads, else None
    (and the download counted). Logged-in users are not limited."""
    if request_.user.is_authenticated:
        return None
    key, limit = address_key(request_), settings.DOWNLOADS_PER_ADDRESS
    # Counted in the server's memory: a database write per anonymous download would make
    # the keepers' saves wait for the write lock.
    wait = downloads.take(key, limit, settings.DOWNLOAD_WINDOW)
    if wait is None:
        return None
    return ratelimit.too_many(
        request_,
        wait,
        heading=_("Too many downloads"),
        reason=_("This address asked for many files in a short time."),
    )


def respond(
    request_: HttpRequest, kind: str, subject: Subject, variant: str = ""
) -> HttpResponseBase:
    """Answer a download link: the file when it is ready for the current data, else a page
    that shows the progress (``?status`` answers its poll) and fetches the file when ready."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    about = KINDS[kind]
    if "status" in request_.GET:
        return _status(kind, subject, language, variant)
    limited = _limited(request_)
    if limited is not None:
        return limited
    document = request(kind, subject, language, variant)
    if request_.method == "POST" and document.status == DocumentStatus.FAILED:
        retry(document)
        document.refresh_from_db()
    if document.status == DocumentStatus.READY:
        path = path_of(document)
        if path.is_file():
            made = Export(about.name(subject, variant), about.content_type, path)
            return download(made, private=about.secret)
        document.delete()  # its file is gone (the folder emptied): make it again
        document = request(kind, subject, language, variant)
    older = (
        Document.objects.filter(kind=kind, variant=variant, language=language, **_of(subject))
        .exclude(pk=document.pk)
        .exists()
    )
    context = {
        "document": document,
        "title": str(about.title),
        "subject": subject,
        "older": older,
        "failed": document.status == DocumentStatus.FAILED,
    }
    # 202: accepted, being made; a failed one says why.
    status = 200 if context["failed"] else 202
    page = render_page(request_, "tournament/document.html", context, status=status)
    page["Cache-Control"] = "private, no-store"
    return page


def _status(kind: str, subject: Subject, language: str, variant: str) -> JsonResponse:
    """The poll of the progress page: reads, never creates."""
    version = current_version(kind, subject)
    document = Document.objects.filter(
        kind=kind, variant=variant, version=version, language=language, **_of(subject)
    ).first()
    status = document.status if document is not None else "gone"
    answer = JsonResponse({"status": status})
    answer["Cache-Control"] = "private, no-store"
    return answer
