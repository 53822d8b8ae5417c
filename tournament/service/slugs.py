"""Short names (URLs) on the service: a club's tournament or series is "<club>-<hall's>"."""

from __future__ import annotations

from django.db.models import Model
from django.utils.text import slugify

from ..models.tournament import SLUG_MAX


def unique_slug(model: type[Model], wanted: str) -> str:
    """``wanted`` as a slug of at most SLUG_MAX characters that no row of ``model`` has yet:
    with -2, -3, ... when it is taken."""
    base = slugify(wanted)[:SLUG_MAX].strip("-") or "t"
    slug, number = base, 1
    manager = model._default_manager
    while manager.filter(slug=slug).exists():
        number += 1
        suffix = f"-{number}"
        slug = base[: SLUG_MAX - len(suffix)].rstrip("-") + suffix
    return slug
