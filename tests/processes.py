"""The project in a fresh interpreter, as a director, a server or a new laptop starts it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from django.conf import settings

# What the test process sets for itself and a fresh start must not inherit.
TEST_ONLY = frozenset({"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"})


def run_python(*args: str, drop=(), timeout: int = 120, **env: str):
    """``python ARGS`` in the project folder: this process's environment without the test's
    own variables and ``drop``, plus ``env``."""
    environment = {k: v for k, v in os.environ.items() if k not in TEST_ONLY | set(drop)}
    environment.update(env)
    return subprocess.run(  # noqa: S603
        [sys.executable, *args],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def read_settings(*names: str, drop=(), **env: str):
    """A fresh interpreter prints ``names`` as the settings module computes them for ``env``
    (JSON on stdout); the finished process."""
    code = (
        "import json, os\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'tournament.settings'\n"
        "from django.conf import settings as s\n"
        f"print(json.dumps({{n: getattr(s, n, None) for n in {list(names)!r}}}))\n"
    )
    return run_python("-c", code, drop=drop, **env)


def settings_of(*names: str, drop=(), **env: str) -> dict:
    """The values of ``names`` for ``env``; the settings must load."""
    result = read_settings(*names, drop=drop, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
