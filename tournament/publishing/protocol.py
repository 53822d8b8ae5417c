"""The wire between a hall laptop and the results service, both sides of it.

A hall publishes a tournament by POSTing the public archive of it (``tournament.archive``,
profile "public": a zip) to ``<service>/api/v1/publish/``. The request names the publishing
key, the tournament's uid and a sequence number that grows with every new public state of that
tournament on the laptop; an HMAC-SHA256 with the key's secret signs all of them together with
the SHA-256 of the body. So the service can refuse:

* a request without a known, unrevoked key, or whose signature does not match (forged or
  tampered with): 401;
* a tournament that another club published first: 403;
* a sequence number lower than the one it holds (an old snapshot replayed or overtaken): 409,
  and the same number with another body: 409. The same number with the same body is the
  laptop sending again after a lost answer: 200, nothing changes (idempotent).

A publishing key is one string for the director to paste: ``kd1.<key id>.<secret>``.
Standard library only: the hall's publisher and the service's view both use it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

PATH = "/api/v1/publish/"
CONTENT_TYPE = "application/zip"
KEY_PREFIX = "kd1"

HEADER_KEY = "X-Kreuzdame-Key"
HEADER_TOURNAMENT = "X-Kreuzdame-Tournament"
HEADER_SEQUENCE = "X-Kreuzdame-Sequence"
HEADER_SIGNATURE = "X-Kreuzdame-Signature"

# The answers' "error" codes (JSON bodies: {"error": code, "message": text, ...}).
BAD_REQUEST = "bad_request"  # 400: headers missing or malformed, body not an archive
BAD_KEY = "bad_key"  # 401: unknown or revoked key
BAD_SIGNATURE = "bad_signature"  # 401
FOREIGN = "foreign_tournament"  # 403
STALE = "stale_sequence"  # 409, with "sequence": the number the service holds
TOO_LARGE = "too_large"  # 413

_KEY_ID = re.compile(r"^[a-z0-9]{8,32}$")
_KEY = re.compile(rf"^{KEY_PREFIX}\.([a-z0-9]{{8,32}})\.([A-Za-z0-9_-]{{32,128}})$")


@dataclass(frozen=True)
class Key:
    key_id: str
    secret: str

    def __str__(self) -> str:
        return f"{KEY_PREFIX}.{self.key_id}.{self.secret}"


def new_key() -> Key:
    """A fresh key: 16 characters of id, 43 of secret (256 bits)."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    key_id = "".join(secrets.choice(alphabet) for _ in range(16))
    return Key(key_id, secrets.token_urlsafe(32))


def parse_key(text: str) -> Key | None:
    """The key in a pasted string (spaces around it ignored), or None if it is not one."""
    match = _KEY.match(text.strip())
    return Key(match.group(1), match.group(2)) if match else None


def valid_key_id(text: str) -> bool:
    return bool(_KEY_ID.match(text))


def _message(key_id: str, tournament: str, sequence: int, body: bytes) -> bytes:
    digest = hashlib.sha256(body).hexdigest()
    return f"kreuzdame-publish-v1\n{key_id}\n{tournament}\n{sequence}\n{digest}".encode()


def signature(secret: str, key_id: str, tournament: str, sequence: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), _message(key_id, tournament, sequence, body), hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def signed_headers(key: Key, tournament: str, sequence: int, body: bytes) -> dict[str, str]:
    """The headers of a publishing request for ``body``."""
    return {
        "Content-Type": CONTENT_TYPE,
        HEADER_KEY: key.key_id,
        HEADER_TOURNAMENT: tournament,
        HEADER_SEQUENCE: str(sequence),
        HEADER_SIGNATURE: signature(key.secret, key.key_id, tournament, sequence, body),
    }


def verify(secret: str, key_id: str, tournament: str, sequence: int, body: bytes, sig: str) -> bool:
    """Whether ``sig`` signs this request with ``secret`` (in constant time)."""
    return hmac.compare_digest(signature(secret, key_id, tournament, sequence, body), sig)
