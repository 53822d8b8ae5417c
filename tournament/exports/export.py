"""What leaves the site as a file: an :class:`Export` (file name, content type, bytes), every
exporter's answer (pretix's exporters return the same three), and :func:`download`, the one
response that hands an export out.

The file names follow one scheme (:func:`file_name`): what the file is about (the slug of the
tournament or series), then what it holds, then what narrows it, in German words like the
site's addresses (``/tisch/``, ``/leinwand/``) and the same in both languages, so that a folder
of downloads or a treasurer's script does not change with the reader's language:
``herbst-rangliste.pdf``, ``herbst-druckpaket-runde-3.pdf``,
``herbst-ergebnisse-vorläufig.csv``. Lower case, words joined by ``-``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from django.http import FileResponse, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.text import slugify

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
JSON = "application/json; charset=utf-8"

# What an ASCII file name keeps as it is; the rest becomes "_" (umlauts are spelled out).
_ASCII_SAFE = re.compile(r"[^A-Za-z0-9._-]")
_SPELLED_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_SPELLED_OUT.update(str.maketrans({"ß": "ss"}))


@dataclass(frozen=True)
class Export:
    """One file as it leaves the site: its bytes, or the path of a file the background worker
    made (streamed from the disk, never read into memory as a whole)."""

    filename: str
    content_type: str
    data: bytes | Path


def file_name(subject: str, *words: str | int, suffix: str) -> str:
    """The name of a file about ``subject`` (a slug) holding ``words`` (German, e.g.
    ``"druckpaket", "runde", 3``): ``subject-word-word.suffix``, each word made a slug that
    keeps umlauts."""
    parts = [subject, *(slugify(str(word), allow_unicode=True) for word in words)]
    return "-".join(part for part in parts if part) + "." + suffix


def ascii_name(name: str) -> str:
    """``name`` for a client that cannot read RFC 6266's UTF-8 form: umlauts spelled out
    (ä -> ae), other accents dropped, anything else but letters, digits, ``.``, ``_`` and ``-``
    replaced, so that it never needs quoting (no ``"``, ``\\``, ``;``, ``/``)."""
    plain = unicodedata.normalize("NFKD", name.translate(_SPELLED_OUT))
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return _ASCII_SAFE.sub("_", plain).lstrip(".") or "download"


def content_disposition(name: str) -> str:
    """The Content-Disposition of an attachment named ``name`` (RFC 6266): the ASCII name,
    and when ``name`` is not plain ASCII also its UTF-8 form, which browsers prefer."""
    fallback = ascii_name(name)
    if fallback == name:
        return f'attachment; filename="{name}"'
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"


def download(export: Export, *, private: bool = False) -> HttpResponseBase:
    """The response that hands ``export`` out as a download. ``private``: the file carries
    secrets or personal data (table links, players' codes, a person's record), so no cache
    on the way or in the browser keeps it."""
    response: HttpResponseBase
    if isinstance(export.data, Path):
        response = FileResponse(export.data.open("rb"), content_type=export.content_type)
        response["Content-Length"] = str(export.data.stat().st_size)
    else:
        response = HttpResponse(export.data, content_type=export.content_type)
        response["Content-Length"] = str(len(export.data))
    response["Content-Disposition"] = content_disposition(export.filename)
    if private:
        response["Cache-Control"] = "private, no-store"
    return response
