"""A TCP proxy on loopback that a test can cut: the hall's uplink to the results service as a
phone hotspot behaves, with the link there, gone, hanging, or gone just as the answer comes.

Modes (``proxy.mode = ...``; a change also cuts the connections open at that moment):

* ``"pass"``: every byte through, both ways;
* ``"refuse"``: a new connection is closed at once (no network);
* ``"hang"``: a new connection is accepted and never served (a dead hotspot: the client's
  timeout ends it);
* ``"lose_answer"``: the request reaches the service whole, but once the answer begins the
  connection is cut and the answer never reaches the client (the service did the work, the
  hall does not know it).
"""

from __future__ import annotations

import contextlib
import socket
import threading

MODES = ("pass", "refuse", "hang", "lose_answer")


class CuttingProxy:
    def __init__(self, upstream_port: int) -> None:
        self.upstream = ("127.0.0.1", upstream_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._mode = "pass"
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self.lost_answers = 0  # answers the service gave that the client never saw
        self.passed = 0  # connections that went through
        self._closed = False
        # A list to keep what clients sent (one bytes object per connection), or None.
        self.record: list[bytes] | None = None
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def mode(self) -> str:
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        assert mode in MODES, mode
        with self._lock:
            self._mode = mode
            cut, self._open = self._open, set()
        for sock in cut:
            _close(sock)

    def close(self) -> None:
        self._closed = True
        self.mode = "refuse"
        _close(self._listener)

    def _keep(self, *socks: socket.socket) -> None:
        with self._lock:
            self._open.update(socks)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            mode = self._mode
            if mode == "refuse":
                _close(client)
            elif mode == "hang":
                self._keep(client)  # held open, never read, until the mode changes
            else:
                threading.Thread(target=self._serve, args=(client, mode), daemon=True).start()

    def _serve(self, client: socket.socket, mode: str) -> None:
        try:
            upstream = socket.create_connection(self.upstream, timeout=60)
        except OSError:
            _close(client)
            return
        self._keep(client, upstream)
        if mode == "pass":
            self.passed += 1
        threading.Thread(target=self._forward, args=(client, upstream), daemon=True).start()
        if mode == "pass":
            self._pump(upstream, client)
            return
        # lose_answer: read the first bytes of the answer, then cut both sides.
        with contextlib.suppress(OSError):
            if upstream.recv(1):
                self.lost_answers += 1
        _close(client)
        _close(upstream)

    def _forward(self, client: socket.socket, upstream: socket.socket) -> None:
        """The client's bytes to the service, kept in ``record`` if a list is set."""
        sent = bytearray()
        try:
            while data := client.recv(65536):
                sent += data
                upstream.sendall(data)
        except OSError:
            pass
        finally:
            if self.record is not None and sent:
                self.record.append(bytes(sent))

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            _close(source)
            _close(target)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
