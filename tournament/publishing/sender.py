"""One publishing request over HTTP (standard library only): the signed POST of a change and
the service's answer."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from dataclasses import dataclass

from . import protocol
from .config import Target

ANSWER_LIMIT = 64 * 1024  # bytes of an answer read: the service's answers are small JSON
MOVED = "moved"  # the service's address answers with a redirect (e.g. http to https)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is answered as it is: urllib would repeat a POST as a GET without its body.
    The director is told the new address instead (status.py)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(_NoRedirects)


class NoConnection(Exception):
    """The service was not reached, or the connection broke before its answer."""


@dataclass(frozen=True)
class Answer:
    status: int
    data: dict


def _decoded(raw: bytes) -> dict:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def post(target: Target, tournament_uid: str, sequence: int, body: bytes, timeout: float) -> Answer:
    headers = protocol.signed_headers(target.key, tournament_uid, sequence, body)
    # The address is http(s) only (config.valid_url): never a file or another scheme.
    request = urllib.request.Request(  # noqa: S310
        target.endpoint, data=body, headers=headers, method="POST"
    )
    try:
        with _opener.open(request, timeout=timeout) as response:
            return Answer(response.status, _decoded(response.read(ANSWER_LIMIT)))
    except urllib.error.HTTPError as error:
        with error:
            data = _decoded(error.read(ANSWER_LIMIT))
            if 300 <= error.code < 400:
                data = {"error": MOVED, "message": str(error.headers.get("Location") or "")}
            return Answer(error.code, data)
    except (OSError, http.client.HTTPException, ValueError) as error:
        # URLError (no route, refused, DNS), timeouts, a connection cut mid-answer.
        raise NoConnection(str(getattr(error, "reason", error)) or type(error).__name__) from error
