"""Hall mode: the director's laptop serves the phones on the hall's Wi-Fi.

A club hall has no domain and no certificate, often no internet, and the laptop's address is
whatever the travel router or the phone hotspot handed out. This module finds that address,
names the hosts the site answers to, and keeps the secret key in a local file so that logins
survive a restart of the laptop. It runs while the settings are read, so it imports nothing
of Django and must work the same on Windows, macOS and Linux (standard library only).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import secrets
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

DEFAULT_PORT = 8000
# A documentation address (TEST-NET-2): connecting a UDP socket to it sends no packet, it
# only asks the system which interface a packet to the outside would leave through.
_ROUTE_PROBE = ("198.51.100.1", 9)


# A host name as a router's DNS or mDNS knows it: letters, digits, hyphens, dots.
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST_NAME = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*$", re.IGNORECASE)


def _usable(address: str) -> bool:
    """A private LAN address another device in the hall could use: IPv4, not loopback, not
    link-local, and not an internet address (hall mode serves plain http: never there)."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
        return False
    return not ip.is_global


def is_internet_address(address: str) -> bool:
    try:
        return ipaddress.IPv4Address(address).is_global
    except ValueError:
        return False


def _route_address() -> str | None:
    """The address of the interface that carries the default route, if there is one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(_ROUTE_PROBE)
        return probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()


def _resolved_addresses() -> list[str]:
    """What the host name resolves to: on Windows and macOS every interface's address."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def _interface_addresses() -> list[str]:
    """Linux: the IPv4 address of every interface (also the ones without a default route,
    e.g. a cable to the router while the Wi-Fi is a hotspot without internet)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl  # POSIX only

    siocgifaddr = 0x8915
    found = []
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(sock.fileno(), siocgifaddr, request)
            except OSError:
                continue  # an interface without an IPv4 address
            found.append(socket.inet_ntoa(answer[20:24]))
    finally:
        sock.close()
    return found


def lan_addresses() -> list[str]:
    """The laptop's LAN addresses, the one with the default route first."""
    candidates = [_route_address(), *_interface_addresses(), *_resolved_addresses()]
    addresses: list[str] = []
    for address in candidates:
        if address and _usable(address) and address not in addresses:
            addresses.append(address)
    return addresses


def host_names() -> list[str]:
    """The names a phone may use for the laptop: its host name and the mDNS name
    ``<name>.local`` that Windows, macOS, iOS and Android resolve on a LAN."""
    name = socket.gethostname().strip().lower()
    if not name:
        return []
    short = name.split(".")[0]
    names = [name, short, f"{short}.local"]
    return list(dict.fromkeys(n for n in names if n))


def choose_address(addresses: list[str], preferred: str = "") -> str:
    """The address printed for the phones: ``HALL_ADDRESS`` if the director set one (an
    address or a name the router resolves), else the default route's, else loopback."""
    preferred = preferred.strip()
    if preferred:
        if not _HOST_NAME.match(preferred):
            # e.g. "http://192.168.1.20" or "192.168.1.20:8000" would make every QR code wrong
            raise ValueError(
                "HALL_ADDRESS must be an address or a host name alone, e.g. 192.168.1.20 or "
                f"turnier.lan (no http://, no port: the port is PORT), not {preferred!r}."
            )
        return preferred
    return addresses[0] if addresses else "127.0.0.1"


def allowed_hosts(addresses: list[str], names: list[str], chosen: str) -> list[str]:
    """Every name and address this laptop answers to in the hall; nothing else."""
    hosts = [chosen, *addresses, *names, "localhost", "127.0.0.1"]
    return list(dict.fromkeys(h for h in hosts if h))


def site_url(address: str, port: int) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}/" if port == 80 else f"http://{host}:{port}/"


def port_from(value: str | None) -> int:
    """``PORT`` from the environment: 1-65535, else a clear error."""
    if value is None or not value.strip():
        return DEFAULT_PORT
    if not value.strip().isdecimal() or not 1 <= int(value) <= 65535:
        raise ValueError(f"PORT must be a number from 1 to 65535, not {value!r}.")
    return int(value)


def secret_key(path: Path) -> str:
    """The key in ``path``; made on first start. The file stays on the laptop (git-ignored):
    sessions and logins survive a restart, and a new laptop simply logs everybody out once."""
    if path.is_file():
        key = path.read_text(encoding="utf-8").strip()
        if len(key) >= 50:
            if os.name == "posix":  # a file copied in with another mode: the owner's only
                with contextlib.suppress(OSError):
                    path.chmod(0o600)
            return key
    key = secrets.token_urlsafe(64)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Readable by the owner only, where the system knows file modes.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(key + "\n")
    return key


class Supervisor:
    """Keeps a helper process running beside the hall's web server: the documents' worker
    (``manage.py worker``), the publisher to the results service (``manage.py publisher``).
    Started again when it dies (after ``pause`` seconds, so that a helper that cannot start
    does not spin), stopped with the hall."""

    def __init__(self, command: list[str], pause: float = 2.0) -> None:
        self.command = command
        self.pause = pause
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="worker-supervisor", daemon=True)

    def start(self) -> None:
        self._spawn()
        self._thread.start()

    def _spawn(self) -> None:
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL)  # noqa: S603
        self.starts += 1

    def _watch(self) -> None:
        while not self._stopping.is_set():
            process = self.process
            if process is not None and process.poll() is not None:
                if self._stopping.wait(self.pause):
                    return
                self._spawn()
            self._stopping.wait(0.5)

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.terminate()  # the worker finishes nothing half: an unfinished render is redone
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def worker_command(manage: str) -> list[str]:
    """The command line of the documents' worker, with this Python."""
    return [sys.executable, manage, "worker", "--verbosity", "0", "--supervised"]


def publisher_command(manage: str) -> list[str]:
    """The command line of the publisher to the results service, with this Python."""
    return [sys.executable, manage, "publisher", "--verbosity", "0", "--supervised"]
