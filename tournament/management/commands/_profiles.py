"""Shared by the commands that take ``--profile``."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from scoring.profiles import PROFILES, RuleProfile, get_profile


def profile_or_exit(key: str) -> RuleProfile:
    """The shipped profile ``key``; an unknown key ends the command with exit code 2."""
    if key not in PROFILES:
        raise CommandError(
            _("Unknown rule profile “%(key)s”; known: %(known)s.")
            % {"key": key, "known": ", ".join(PROFILES)},
            returncode=2,
        )
    return get_profile(key)
