"""The certificates' design (issue 38), the verb: the site's one design saved with its logo.
Every save moves the design's version, which the certificate files are keyed by (a changed
design makes new files: ``tasks.documents``)."""

from __future__ import annotations

import logging
from io import BytesIO

from django.db import transaction
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

from ..errors import DomainError
from ..models import CertificateDesign
from ..models.locks import lock

logger = logging.getLogger(__name__)

MAX_LOGO_BYTES = 2 * 1024 * 1024
# A small file may still unpack into a huge picture (a "decompression bomb"): no logo needs
# more than this many pixels on A4.
MAX_LOGO_PIXELS = 25_000_000
LOGO_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg"}
DESIGN_FIELDS = (
    "title",
    "orientation",
    "signature_left",
    "signature_left_role",
    "signature_right",
    "signature_right_role",
)


def logo_type(data: bytes) -> str:
    """The content type of an uploaded logo: a PNG or JPEG file of at most 2 MB that Pillow
    opens and checks; :class:`DomainError` with the reason otherwise."""
    if len(data) > MAX_LOGO_BYTES:
        raise DomainError(_("The logo may be at most 2 MB large."))
    refused = DomainError(_("The logo must be a PNG or JPEG picture."))
    try:
        with Image.open(BytesIO(data)) as image:
            kind = image.format or ""
            width, height = image.size
            image.verify()
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        raise refused from None
    if kind not in LOGO_TYPES:
        raise refused
    if width * height > MAX_LOGO_PIXELS:
        raise DomainError(_("The logo has too many pixels: at most 25 megapixels."))
    return LOGO_TYPES[kind]


def save_design(
    changes: dict[str, str], user, *, logo: bytes | None = None, remove_logo: bool = False
) -> CertificateDesign:
    """Save the site's certificate design: the fields of ``changes`` (title, orientation,
    signatures), a new ``logo`` (checked: :func:`logo_type`) or, ``remove_logo``, none.
    Moves the design's version. Nothing is written when the logo is refused."""
    kind = logo_type(logo) if logo else ""
    with transaction.atomic():
        design = lock(CertificateDesign.objects).order_by("pk").first() or CertificateDesign()
        for name in DESIGN_FIELDS:
            if name in changes:
                setattr(design, name, changes[name])
        if logo:
            design.logo, design.logo_type = logo, kind
        elif remove_logo:
            design.logo, design.logo_type = b"", ""
        design.version += 1
        design.save()
    # The design keeps no history table: the log says who changed it.
    logger.info(
        "certificate design version %s saved by %s", design.version, getattr(user, "pk", None)
    )
    return design
