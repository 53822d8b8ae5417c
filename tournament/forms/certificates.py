"""The certificates' design form (issue 38): title, page, the two signatures, and a logo to
upload (PNG or JPEG, checked by opening it: ``domain.certificates.logo_type``) or remove."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ..domain.certificates import MAX_LOGO_BYTES, logo_type
from ..errors import DomainError
from ..models import CertificateDesign
from .text import no_control_characters


class CertificateDesignForm(forms.ModelForm):
    logo_file = forms.FileField(
        label=_("Logo"),
        required=False,
        help_text=_("A PNG or JPEG picture of at most 2 MB, printed above the title."),
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg"}),
    )
    remove_logo = forms.BooleanField(label=_("Remove the logo"), required=False)

    class Meta:
        model = CertificateDesign
        fields = [
            "title",
            "orientation",
            "signature_left",
            "signature_left_role",
            "signature_right",
            "signature_right_role",
        ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in self.Meta.fields:
            if name != "orientation":
                self.fields[name].validators.append(no_control_characters)
        self.logo: bytes | None = None

    def clean_logo_file(self):
        upload = self.cleaned_data.get("logo_file")
        if not upload:
            return None
        if upload.size is not None and upload.size > MAX_LOGO_BYTES:
            # Not read at all: the size says enough.
            raise ValidationError(_("The logo may be at most 2 MB large."), code="size")
        data = upload.read(MAX_LOGO_BYTES + 1)
        try:
            logo_type(data)
        except DomainError as exc:
            raise ValidationError(str(exc.message), code="logo") from None
        self.logo = data
        return upload
