#!/usr/bin/env python
"""Django's command-line utility for Kreuzdame."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    if sys.argv[1:2] == ["hall"]:
        # The tournament day: the settings must know before Django reads them that this is
        # the hall (DEBUG off, plain http on the LAN), so the command is recognised here.
        os.environ["KREUZDAME_HALL"] = "1"
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A setting from the environment is wrong (PORT, HALL_ADDRESS, SECRET_KEY, ...):
        # say which, without a traceback.
        sys.exit(f"Error: {exc}")


if __name__ == "__main__":
    main()
