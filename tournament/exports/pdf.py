"""PDF rendering with WeasyPrint that can never read a file or a URL it was not meant to.

Every document is a Django template rendered to HTML and handed to WeasyPrint with
:class:`StaticOnlyFetcher`. WeasyPrint asks its fetcher for every resource it meets
(stylesheets, images, fonts named in ``@font-face``, ``url(...)`` in CSS); this fetcher
serves the project's own static files and refuses everything else: ``file:``, ``http:`` and
``https:`` addresses elsewhere, ``data:`` URLs, relative paths, anything outside
``STATIC_URL``. A refused resource raises :class:`ResourceRefused`; WeasyPrint then logs it
and leaves the resource out. The one exception are images the code made for this very
document (QR codes as PNG): handed to :func:`render_pdf` by name, they are served under
:data:`GENERATED` and nothing else is. Player names and other user text reach the template as
autoescaped text, and even if markup slipped through, the fetcher would not load it.
"""

from __future__ import annotations

import gc
import mimetypes
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from . import GENERATED, PdfUnavailable

try:
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher, URLFetcherResponse
except (ImportError, OSError) as exc:
    # WeasyPrint draws with the Pango library, which Windows and macOS do not have unless
    # it is installed: the site runs without it, only PDFs are refused with a message.
    raise PdfUnavailable() from exc

# The documents resolve ``{% static %}`` against this origin. Nothing is ever fetched from it:
# the fetcher maps the path onto the static files on disk.
DEFAULT_BASE_URL = "http://localhost/"

# Static names are plain relative paths: no "..", no backslashes, no control characters.
_SAFE_SEGMENT = re.compile(r"^[^\x00-\x1f\\]+$")


class ResourceRefused(ValueError):
    """A document asked for a resource that is not one of the project's static files."""


def _static_prefix(base_url: str) -> str:
    """The absolute URL under which ``{% static %}`` places files for ``base_url``."""
    prefix = urljoin(base_url, settings.STATIC_URL)
    return prefix if prefix.endswith("/") else prefix + "/"


def _static_file(name: str) -> Path:
    """The file on disk for the static name ``name`` (e.g. "tournament/print.css")."""
    segments = name.split("/")
    for segment in segments:
        if segment in {"", ".", ".."} or not _SAFE_SEGMENT.match(segment):
            raise ResourceRefused(f"not a static file name: {name!r}")
    try:
        found = finders.find(name)
        if not found:
            # Production: {% static %} names the hashed copy that collectstatic wrote.
            found = staticfiles_storage.path(name) if staticfiles_storage.exists(name) else None
    except (SuspiciousFileOperation, NotImplementedError, ValueError) as exc:
        raise ResourceRefused(f"not a static file: {name!r}") from exc
    if not found or not Path(found).is_file():
        raise ResourceRefused(f"no such static file: {name!r}")
    return Path(found)


class StaticOnlyFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that serves the project's static files and nothing else.

    Accepted are absolute URLs below ``STATIC_URL`` of ``base_url`` (what ``{% static %}``
    becomes in a document rendered with that base URL) and site-relative paths below
    ``STATIC_URL`` ("/static/..."). The file is read from the static-file finders, never
    over the network.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        images: dict[str, bytes] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(allowed_protocols=(), allow_redirects=False, **kwargs)
        self.static_prefix = _static_prefix(base_url)
        self.static_path = urlsplit(self.static_prefix).path
        # PNG images made for this document, by name: served as GENERATED + name.
        self.images = images or {}

    def static_name(self, url: str) -> str:
        """The static name that ``url`` addresses; :class:`ResourceRefused` otherwise."""
        if not isinstance(url, str):
            raise ResourceRefused("not a URL")
        if url.startswith(self.static_prefix):
            rest = url[len(self.static_prefix) :]
        elif url.startswith(self.static_path) and not url.startswith("//"):
            rest = url[len(self.static_path) :]
        else:
            raise ResourceRefused(f"refused to fetch {url[:200]!r}: not a static file")
        rest = rest.split("#", 1)[0].split("?", 1)[0]
        return unquote(rest)

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        if isinstance(url, str) and url.startswith(GENERATED):
            body = self.images.get(url[len(GENERATED) :])
            if body is None:
                raise ResourceRefused(f"no such generated image: {url[:200]!r}")
            return URLFetcherResponse(url, body=body, headers={"Content-Type": "image/png"})
        path = _static_file(self.static_name(url))
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if content_type.startswith("text/") or content_type == "image/svg+xml":
            content_type += "; charset=utf-8"
        return URLFetcherResponse(
            url, body=path.read_bytes(), headers={"Content-Type": content_type}
        )


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal that is also safe inside an HTML ``<style>``."""
    escaped = "".join(
        ch if ch.isalnum() or ch in " .,:;-_()/" else f"\\{ord(ch):x} " for ch in text
    )
    return f'"{escaped}"'


def page_label_css() -> SafeString:
    """A CSS ``content`` value for "Page x of y" in the active language."""
    label = gettext("Page {page} of {pages}")
    parts = re.split(r"(\{page\}|\{pages\})", label)
    tokens = []
    for part in parts:
        if part == "{page}":
            tokens.append("counter(page)")
        elif part == "{pages}":
            tokens.append("counter(pages)")
        elif part:
            tokens.append(_css_string(part))
    return mark_safe(" ".join(tokens))  # noqa: S308 - built from escaped CSS strings only


_gc_lock = threading.Lock()
_gc_renders = 0
_gc_saved: tuple[int, ...] = ()


@contextmanager
def _spaced_out_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often while a document renders.

    WeasyPrint allocates millions of small objects for a long document (a print pack has
    hundreds of pages); with the default thresholds the collector walks the growing heap
    again and again, a fifth of the rendering time. The thresholds are process-wide, so
    concurrent renders share one raise and the last one to finish restores them.
    """
    global _gc_renders, _gc_saved
    with _gc_lock:
        if _gc_renders == 0:
            _gc_saved = gc.get_threshold()
            gc.set_threshold(max(_gc_saved[0], 50_000), *_gc_saved[1:])
        _gc_renders += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_renders -= 1
            if _gc_renders == 0:
                gc.set_threshold(*_gc_saved)


def render_pdf(
    template_name: str,
    context: dict[str, Any],
    *,
    base_url: str = DEFAULT_BASE_URL,
    images: dict[str, bytes] | None = None,
) -> bytes:
    """Render the Django template ``template_name`` with ``context`` to a PDF.

    The context gets ``page_label_css`` (for ``@page`` margin boxes, see
    ``tournament/print/base.html``) unless it has one. Resources are fetched through
    :class:`StaticOnlyFetcher` only; ``images`` are PNG images by name that the template
    addresses as ``GENERATED + name`` (WeasyPrint loads each name once per document).
    """
    context = {"page_label_css": page_label_css(), **context}
    html = render_to_string(template_name, context)
    with _spaced_out_collections():
        document = HTML(
            string=html, base_url=base_url, url_fetcher=StaticOnlyFetcher(base_url, images)
        )
        return document.write_pdf()
