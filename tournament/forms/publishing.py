"""The page "Results service": the address of the service and the club's publishing key."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..publishing import protocol
from ..publishing.config import valid_url


class ResultsServiceForm(forms.Form):
    url = forms.URLField(
        label=_("Address of the results service"),
        max_length=300,
        assume_scheme="https",
        help_text=_("As the service's operator gave it, e.g. https://ergebnisse.example.org/"),
    )
    key = forms.CharField(
        label=_("Publishing key of your club"),
        max_length=200,
        required=False,
        strip=True,
        # Never shown back: the page names only the key's id.
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        help_text=_("Starts with kd1. Left empty: the stored key stays."),
    )

    def __init__(self, *args, has_key: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.has_key = has_key

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        if not valid_url(url):
            raise forms.ValidationError(_("Enter an address starting with https:// or http://."))
        return url

    def clean_key(self) -> str | None:
        text = self.cleaned_data.get("key") or ""
        if not text:
            if not self.has_key:
                raise forms.ValidationError(_("Enter the publishing key of your club."))
            return None
        if protocol.parse_key(text) is None:
            raise forms.ValidationError(
                _(
                    "This is not a publishing key: it looks like kd1.<key id>.<secret>, as the "
                    "service's operator gave it to your club."
                )
            )
        return text
