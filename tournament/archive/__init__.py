"""A whole tournament as one versioned file (JSON in a zip, docs/archive-format.md): moved to
another laptop (profile "full"), or its public part published to the results service
(profile "public"). ``build`` makes the document, ``pack``/``unpack`` the file, ``digest``
names a state, ``restore`` writes a document back as a tournament."""

from .build import build
from .packing import FORMAT, FORMAT_VERSION, ArchiveConflict, ArchiveError, digest, pack, unpack
from .public import public_part
from .restore import restore

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "ArchiveConflict",
    "ArchiveError",
    "build",
    "digest",
    "pack",
    "public_part",
    "restore",
    "unpack",
]
