"""The file around a document: a zip of ``manifest.json`` and ``tournament.json``
(docs/archive-format.md), made the same byte for byte from the same document, and read back
only after every check a file from anywhere must pass."""

from __future__ import annotations

import hashlib
import io
import json
import uuid
import zipfile
from typing import Any

from django.utils.translation import gettext_lazy as _

from ..errors import DomainError

FORMAT = "kreuzdame-tournament"
FORMAT_VERSION = 1
PROFILES = ("full", "public")

MANIFEST, CONTENT = "manifest.json", "tournament.json"
# What a file may weigh: a 1,000-player field over 12 rounds packs into a few MB; anything
# far beyond is no tournament, and its inflated size is checked before it is inflated.
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_CONTENT_BYTES = 256 * 1024 * 1024
MAX_MANIFEST_BYTES = 64 * 1024
# Every zip entry gets this date: the same document packs into the same bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

# The keys every document has, with their type (the rest is checked while restoring).
TOP_KEYS: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "version": int,
    "profile": str,
    "created_at": str,
    "tournament": dict,
    "teams": list,
    "players": list,
    "entries": list,
    "rounds": list,
    "series": list,
}
TOURNAMENT_KEYS: dict[str, type | tuple[type, ...]] = {
    "uid": str,
    "slug": str,
    "name": str,
    "date": str,
    "is_public": bool,
}


class ArchiveError(DomainError):
    """A tournament file that cannot be read or restored; the message says why, in the
    user's language. Nothing was written when it is raised."""


class ArchiveConflict(ArchiveError):
    """A row the file would write exists already (a tournament with its uid, a unique value
    of the database): a damaged file, or, on the results service, where publications run
    side by side, a row another publication committed meanwhile (the service tries once
    more)."""


def canonical(doc: dict) -> bytes:
    """The document as JSON, one way only: keys sorted, no spaces, UTF-8."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def digest(doc: dict) -> str:
    """The SHA-256 (hex) of the document without its ``created_at``: two documents of the
    same state have the same digest, whenever they were made."""
    state = {key: value for key, value in doc.items() if key != "created_at"}
    return hashlib.sha256(canonical(state)).hexdigest()


def manifest(doc: dict) -> dict:
    """What a reader sees first: the format and version (checked before the content is read),
    the profile, the time it was made and which tournament it holds."""
    tournament = doc.get("tournament", {})
    return {
        "format": doc["format"],
        "version": doc["version"],
        "profile": doc["profile"],
        "created_at": doc["created_at"],
        "tournament": {key: tournament.get(key) for key in ("uid", "slug", "name", "date")},
    }


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def pack(doc: dict) -> bytes:
    """The file of a document: deterministic (the same document gives the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(_entry(MANIFEST), canonical(manifest(doc)))
        archive.writestr(_entry(CONTENT), canonical(doc))
    return buffer.getvalue()


def _member(archive: zipfile.ZipFile, name: str, limit: int, max_values: int | None = None) -> Any:
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ArchiveError(_("This is no Kreuzdame tournament file.")) from None
    if info.file_size > limit:
        raise ArchiveError(_("The tournament file is too big."))
    try:
        with archive.open(info) as member:
            data = member.read(limit + 1)
    except (zipfile.BadZipFile, OSError, RuntimeError, EOFError, ValueError):
        raise ArchiveError(_("The tournament file is damaged.")) from None
    if len(data) > limit:  # a lying header: never inflate more than the limit
        raise ArchiveError(_("The tournament file is too big."))
    if max_values is not None and _values(data) > max_values:
        raise ArchiveError(_("The tournament file is too big."))
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: [[[[…]]]]
        raise ArchiveError(_("The tournament file is damaged.")) from None


def _values(data: bytes) -> int:
    """At least the number of JSON values in ``data`` (every value but the first follows a
    comma or opens a list or object; those in texts count too): counted without parsing, so
    that a few MB of ``{},{},…`` are refused before they become millions of objects."""
    return data.count(b",") + data.count(b"[") + data.count(b"{")


def check_header(head: Any) -> None:
    """Format and version of a manifest or document, the first thing checked."""
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ArchiveError(_("This is no Kreuzdame tournament file."))
    version = head.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ArchiveError(_("This is no Kreuzdame tournament file."))
    if version > FORMAT_VERSION:
        raise ArchiveError(
            _(
                "This file was made by a newer Kreuzdame (file format %(version)s; this one "
                "reads up to %(supported)s). Update Kreuzdame to import it."
            )
            % {"version": version, "supported": FORMAT_VERSION}
        )
    if head.get("profile") not in PROFILES:
        raise ArchiveError(_("This is no Kreuzdame tournament file."))


def _typed(value: Any, kind: type | tuple[type, ...]) -> bool:
    if isinstance(value, bool) and kind is int:
        return False
    return isinstance(value, kind)


def check_shape(doc: Any) -> None:
    """The keys every document has, of their types; the tournament's uid a UUID."""
    check_header(doc)
    broken = ArchiveError(_("The tournament file is incomplete or damaged."))
    if any(not _typed(doc.get(key), kind) for key, kind in TOP_KEYS.items()):
        raise broken
    tournament = doc["tournament"]
    if any(not _typed(tournament.get(key), kind) for key, kind in TOURNAMENT_KEYS.items()):
        raise broken
    try:
        uuid.UUID(tournament["uid"])
    except ValueError:
        raise broken from None
    for key in ("teams", "players", "entries", "rounds", "series"):
        if not all(isinstance(item, dict) for item in doc[key]):
            raise broken


def unpack(
    data: bytes, *, max_content: int = MAX_CONTENT_BYTES, max_values: int | None = None
) -> dict:
    """The document of a tournament file, checked: a zip, not too big, the format and a
    version this Kreuzdame reads, and the document's keys. :class:`ArchiveError` otherwise.
    ``max_content``: the most its document may weigh unzipped; ``max_values``: the most JSON
    values it may hold (the results service takes far less than a hall's import)."""
    if len(data) > MAX_FILE_BYTES:
        raise ArchiveError(_("The tournament file is too big."))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ArchiveError(_("This is no Kreuzdame tournament file.")) from None
    with archive:
        head = _member(archive, MANIFEST, MAX_MANIFEST_BYTES)
        check_header(head)
        doc = _member(archive, CONTENT, min(max_content, MAX_CONTENT_BYTES), max_values)
    check_shape(doc)
    if (doc["format"], doc["version"], doc["profile"]) != (
        head["format"],
        head["version"],
        head["profile"],
    ):
        raise ArchiveError(_("The tournament file is incomplete or damaged."))
    return doc
