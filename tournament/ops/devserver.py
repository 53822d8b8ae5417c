"""`make run` asks this before it starts the development server: with DEBUG on, Django's debug
page shows every setting and the whole process environment to whoever reaches the server, so
DEBUG serves this computer only. The phones in the hall get `make hall` (DEBUG off).

    python -m tournament.ops.devserver HOST     exit status 1 (and why) if HOST is not loopback
"""

import ipaddress
import os
import socket
import sys


def debug_on(environ=os.environ) -> bool:
    """DEBUG as tournament/settings.py reads it (on unless switched off)."""
    value = environ.get("DEBUG")
    if value is None or value == "":
        return True
    return value.strip().lower() in {"1", "true", "yes", "on"}


def is_loopback(host: str) -> bool:
    """True if every address ``host`` stands for is this computer's own (127.x, ::1)."""
    host = host.strip().strip("[]")
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        found = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in found)


def refusal(host: str, debug: bool) -> str | None:
    if not debug or is_loopback(host):
        return None
    return (
        f"Refusing to serve the development site (DEBUG on) on {host}: its error pages show "
        "every setting and the environment to anyone on the network.\n"
        "For the phones in the hall use `make hall`; for this computer: make run HOST=127.0.0.1"
    )


def main(argv: list[str]) -> int:
    host = argv[1] if len(argv) > 1 else "127.0.0.1"
    problem = refusal(host, debug_on())
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
