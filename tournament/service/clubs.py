"""Clubs and their publishing keys: the verbs of the service's administrator.

A key is shown once, when it is made (:func:`issue_key` returns it whole); the service keeps
its secret to check signatures but never shows it again. Rotating makes a new key and revokes
the club's others at once; a revoked key is refused from then on (401 ``bad_key``)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ..errors import DomainError
from ..models import Club, PublishingKey
from ..models.locks import lock
from ..publishing import protocol

CLUB_SLUG_MAX = 40


def add_club(name: str, *, slug: str = "") -> Club:
    """A new club; its short name (its address /verein/<slug>/) from ``slug`` or the name."""
    name = name.strip()
    if not name:
        raise DomainError(_("Please give the club's name."))
    slug = slugify(slug or name)[:CLUB_SLUG_MAX].strip("-")
    if not slug:
        raise DomainError(_("Please give the club a short name of letters and digits."))
    try:
        with transaction.atomic():
            return Club.objects.create(name=name[:150], slug=slug)
    except IntegrityError:
        raise DomainError(
            _("A club with the short name “%(slug)s” exists already.") % {"slug": slug}
        ) from None


def get_club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise DomainError(_("There is no club “%(slug)s”.") % {"slug": slug})
    return club


def issue_key(club: Club, *, revoke_others: bool = False) -> protocol.Key:
    """A new publishing key for ``club``, whole (the only time its secret is shown);
    ``revoke_others``: the club's other keys stop working at the same moment (rotation)."""
    key = protocol.new_key()
    with transaction.atomic():
        if revoke_others:
            lock(PublishingKey.objects.filter(club=club).usable()).update(revoked_at=timezone.now())
        PublishingKey.objects.create(club=club, key_id=key.key_id, secret=key.secret)
    return key


def revoke_key(key_id: str) -> PublishingKey:
    """Revoke the key ``key_id`` (the part between the dots; a whole key is accepted too)."""
    parsed = protocol.parse_key(key_id)
    key_id = parsed.key_id if parsed else key_id.strip()
    with transaction.atomic():
        key = lock(PublishingKey.objects.filter(key_id=key_id)).first()
        if key is None:
            raise DomainError(_("There is no publishing key “%(key)s”.") % {"key": key_id})
        if key.revoked_at is None:
            key.revoked_at = timezone.now()
            key.save(update_fields=["revoked_at"])
    return key
