"""The certificates' design (issue 38), the verb: the site's one design saved with its logo.
Every save moves the design's version, which the certificate files are keyed by (a changed
design makes new files: ``tasks.documents``)."""

from __future__ import annotations

from io import BytesIO

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from ..errors import DomainError
from ..models import CertificateDesign
from ..models.audit import stamp
from ..models.locks import lock

MAX_LOGO_BYTES = 2 * 1024 * 1024
# A small file may still unpack into a huge picture (a "decompression bomb"): no logo needs
# more than this many pixels on A4.
MAX_LOGO_PIXELS = 25_000_000
# What Pillow calls the files it may read: a phone's JPEG with extra pictures (depth or gain
# maps) is "MPO", and is a JPEG all the same.
LOGO_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "MPO": "image/jpeg"}
# The longest side of a stored logo: about 10 cm at 300 dpi, more than any certificate prints.
MAX_LOGO_SIDE = 1200
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


def stored_logo(data: bytes) -> tuple[bytes, str]:
    """The logo as it is kept: an upload checked by :func:`logo_type`, drawn again from its
    first picture, turned upright as the camera meant it, at most :data:`MAX_LOGO_SIDE`
    pixels on its longest side and without its metadata (a phone's place and time). A
    photo stays a JPEG (small), anything else becomes a PNG (sharp, keeps transparency).
    Returns the bytes and their content type."""
    kind = logo_type(data)
    try:
        with Image.open(BytesIO(data)) as image:
            image.seek(0)
            picture = ImageOps.exif_transpose(image)
            picture.thumbnail((MAX_LOGO_SIDE, MAX_LOGO_SIDE))
            out = BytesIO()
            if kind == "image/jpeg":
                picture.convert("RGB").save(out, "JPEG", quality=90)
            else:
                if picture.mode not in ("1", "L", "LA", "P", "RGB", "RGBA"):
                    picture = picture.convert("RGBA")
                picture.save(out, "PNG", optimize=True)
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        raise DomainError(_("The logo must be a PNG or JPEG picture.")) from None
    return out.getvalue(), kind


def save_design(
    changes: dict[str, str], user, *, logo: bytes | None = None, remove_logo: bool = False
) -> CertificateDesign:
    """Save the site's certificate design: the fields of ``changes`` (title, orientation,
    signatures), a new ``logo`` (checked: :func:`logo_type`) or, ``remove_logo``, none.
    Moves the design's version and writes a history record with ``user``. Nothing is
    written when the logo is refused."""
    stored, kind = stored_logo(logo) if logo else (b"", "")

    def change(design: CertificateDesign) -> CertificateDesign:
        for name in DESIGN_FIELDS:
            if name in changes:
                setattr(design, name, changes[name])
        if stored:
            design.logo, design.logo_type = stored, kind
        elif remove_logo:
            design.logo, design.logo_type = b"", ""
        design.version += 1
        return stamp(design, user)

    with transaction.atomic():
        design = lock(CertificateDesign.objects).order_by("pk").first()
        if design is None:
            # The first save makes the one row under a fixed key: when two first saves meet,
            # the second one's insert fails on the key and it changes the first one's row.
            first = change(CertificateDesign(pk=1))
            try:
                with transaction.atomic():
                    first.save(force_insert=True)
            except IntegrityError:
                design = lock(CertificateDesign.objects).get(pk=1)
            else:
                return first
        change(design).save()
    return design
