"""Tablets that stay at their table (issue 35): the director makes a pairing code for a table
number, a device gives it once and from then on follows that table number from round to
round (tournament/web/devices.py, tournament/views/devices.py); the director revokes it.

The code is short enough to type (8 characters of 32, 40 bits), valid for
``PAIRING_CODE_SECONDS`` and once; a device gets a long random token for its cookie. Both are
stored only as SHA-256 hashes. Wrong codes are counted per network before they are compared
(as the confirmation codes, tournament/sheets/codes.py): ``PAIRING_FAILURES`` in
``PAIRING_WINDOW`` leave a guesser some 1,440 tries a day against 2^40 codes, of which only
the few made in the last minutes are valid, while a director who mistyped is not stuck."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..base import ratelimit
from ..errors import DomainError
from ..models import TableDevice, Tournament
from ..models.audit import LIST_KEEPER, event, stamp
from ..models.locks import lock

PAIRING_CODE_SECONDS = 15 * 60
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read off a screen
CODE_LENGTH = 8
PAIRING_FAILURES, PAIRING_WINDOW = 10, 600
MAX_TABLE_NUMBER = 500
# How often a device's "last seen" is written at most: its page polls, and a write per poll
# would make the keepers' saves wait for the database for nothing.
SEEN_EVERY = timedelta(seconds=60)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normal_code(text: str) -> str:
    """A typed pairing code as stored: upper case, without spaces and dashes."""
    return "".join(c for c in text.upper() if c not in " -\t")


def shown_code(code: str) -> str:
    """The code as the director reads it out: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


class PairingRefused(DomainError):
    """The code is wrong, expired or used; nothing is paired."""


class TooManyPairings(DomainError):
    def __init__(self, seconds: int) -> None:
        minutes = max(1, -(-seconds // 60))
        super().__init__(
            _("Too many wrong pairing codes from this network. Try again in %(minutes)s min.")
            % {"minutes": minutes}
        )
        self.seconds = seconds


def new_pairing(tournament: Tournament, table_number: int, user, label: str = "") -> str:
    """Make a one-time pairing code for ``table_number`` of ``tournament``; the code itself
    is returned (shown once on the director's page), only its hash is kept."""
    if not 1 <= table_number <= MAX_TABLE_NUMBER:
        raise DomainError(_("Enter a table number from 1 to %(max)s.") % {"max": MAX_TABLE_NUMBER})
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    device = TableDevice(
        tournament=tournament,
        table_number=table_number,
        label=label,
        code_hash=_hash(code),
        code_expires_at=timezone.now() + timedelta(seconds=PAIRING_CODE_SECONDS),
        created_by=user,
    )
    stamp(device, user)
    device.save()
    return code


@dataclass(frozen=True)
class Paired:
    device: TableDevice
    token: str  # for the device's cookie; never stored


def pair(code: str, network: str, replaces: TableDevice | None = None) -> Paired:
    """Pair the device that gives ``code``: the pending pairing becomes this device's, with a
    new token. Wrong codes from ``network`` are counted first (see the module). A device that
    was paired before (``replaces``) leaves its old pairing: one device, one table."""
    slots, wait = ratelimit.take_all(
        [(f"device-pairing:{network}"[:200], PAIRING_FAILURES)], PAIRING_WINDOW
    )
    if wait is not None:
        raise TooManyPairings(wait)
    code = normal_code(code)
    if len(code) != CODE_LENGTH:
        raise PairingRefused(_("A pairing code has 8 characters, e.g. K7QM-4XPD."))
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        device = (
            lock(TableDevice.objects)
            .filter(
                code_hash=_hash(code),
                code_expires_at__gt=now,
                token_hash__isnull=True,
                revoked_at__isnull=True,
            )
            .select_related("tournament")
            .first()
        )
        if device is None:
            raise PairingRefused(
                _(
                    "This pairing code is not valid (any more): it is used once and only for "
                    "%(minutes)s minutes. Ask the tournament office for a new one."
                )
                % {"minutes": PAIRING_CODE_SECONDS // 60}
            )
        device.code_hash = ""
        device.code_expires_at = None
        device.token_hash = _hash(token)
        device.paired_at = device.last_seen_at = now
        stamp(device, None, event("device-paired"), role=LIST_KEEPER)
        device.save()
        if replaces is not None and replaces.pk != device.pk and replaces.revoked_at is None:
            replaces.revoked_at = now
            stamp(replaces, None, event("device-paired-again"), role=LIST_KEEPER)
            replaces.save(update_fields=["revoked_at"])
    ratelimit.give_back(slots)  # only wrong codes count
    return Paired(device, token)


def revoke(device: TableDevice, user) -> TableDevice:
    """End a pairing (or withdraw a code not used yet): the device no longer follows its
    table, and what it still sends is refused with a message (tournament/web/devices.py)."""
    with transaction.atomic():
        device = lock(TableDevice.objects).get(pk=device.pk)
        if device.revoked_at is None:
            device.revoked_at = timezone.now()
            device.code_hash = ""
            stamp(device, user, event("device-revoked"))
            device.save()
    return device


# --- reads -------------------------------------------------------------------------------------


def device_for_token(token: str) -> TableDevice | None:
    """The pairing behind a device's cookie (also a revoked one), or None."""
    if not token or len(token) > 100:
        return None
    return TableDevice.objects.filter(token_hash=_hash(token)).select_related("tournament").first()


def seen(device: TableDevice) -> None:
    """Note that the device asked now, at most once per ``SEEN_EVERY`` (no history)."""
    now = timezone.now()
    if device.last_seen_at is None or now - device.last_seen_at >= SEEN_EVERY:
        TableDevice.objects.filter(pk=device.pk).update(last_seen_at=now)
        device.last_seen_at = now
