"""A results service for the publisher's tests: an http.server in a thread on loopback that
speaks tournament/publishing/protocol.py (signatures checked with ``protocol.verify``, the
sequence rules of its docstring) and keeps every body it accepted. A test can make it answer
with an error, or take a change and then cut the connection before answering (a lost
answer)."""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.waiting import Notes
from tournament.publishing import protocol


@dataclass
class Held:
    sequence: int
    digest: str


@dataclass
class FakeService:
    key: protocol.Key
    # What the next requests get instead of the protocol's answer: (status, JSON dict), or
    # "drop" (no answer at all), "take-and-drop" (accepted, then the connection is cut), or
    # ("redirect", address).
    trouble: list = field(default_factory=list)
    held: dict[str, Held] = field(default_factory=dict)
    accepted: list[tuple[str, int, bytes]] = field(default_factory=list)
    requests: list[tuple[str, int]] = field(default_factory=list)
    notes: Notes = field(default_factory=Notes)
    url: str = ""

    def answer(self, headers, body: bytes) -> tuple[int, dict] | str:
        uid = headers.get(protocol.HEADER_TOURNAMENT, "")
        try:
            sequence = int(headers.get(protocol.HEADER_SEQUENCE, ""))
        except ValueError:
            return 400, {"error": protocol.BAD_REQUEST, "message": "sequence"}
        self.notes.add(self.requests, (uid, sequence))
        trouble = self.trouble.pop(0) if self.trouble else None
        if trouble is not None and trouble != "take-and-drop":
            return trouble
        if headers.get(protocol.HEADER_KEY) != self.key.key_id:
            return 401, {"error": protocol.BAD_KEY, "message": "unknown key"}
        signature = headers.get(protocol.HEADER_SIGNATURE, "")
        if not protocol.verify(self.key.secret, self.key.key_id, uid, sequence, body, signature):
            return 401, {"error": protocol.BAD_SIGNATURE, "message": "signature"}
        digest = hashlib.sha256(body).hexdigest()
        held = self.held.get(uid)
        if held is not None and sequence < held.sequence:
            return 409, {"error": protocol.STALE, "sequence": held.sequence}
        if held is not None and sequence == held.sequence:
            if digest != held.digest:
                return 409, {"error": protocol.STALE, "sequence": held.sequence}
            return 200, {"status": "unchanged", "sequence": sequence, "url": self.page(uid)}
        self.held[uid] = Held(sequence, digest)
        self.notes.add(self.accepted, (uid, sequence, body))
        if trouble == "take-and-drop":
            return "drop"
        return 200, {"status": "accepted", "sequence": sequence, "url": self.page(uid)}

    def page(self, uid: str) -> str:
        return f"{self.url}t/{uid[:8]}/"


def serve(service: FakeService):
    """Start ``service`` on a free loopback port (the system picks it); returns the server,
    ``server.shutdown()`` stops it."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # http.server's name for it
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            if self.path != protocol.PATH:
                reply = (404, {"error": "not_found"})
            else:
                reply = service.answer(self.headers, body)
            if reply == "drop":
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if reply[0] == "redirect":
                self.send_response(301)
                self.send_header("Location", reply[1])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            status, data = reply
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, format, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    service.url = f"http://127.0.0.1:{server.server_address[1]}/"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
