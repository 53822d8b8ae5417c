"""The verbs of the product. Each function owns its transaction and raises
:class:`DomainError` with a message for the user when a request cannot be carried out."""


class DomainError(Exception):
    """A request the rules do not allow; ``message`` is shown to the user as it is."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


class PdfUnavailable(DomainError):
    """PDFs cannot be made on this computer: WeasyPrint's Pango library is missing."""

    def __init__(self) -> None:
        from django.utils.translation import gettext

        super().__init__(
            gettext(
                "PDF files cannot be made on this computer: the Pango library they are drawn "
                "with is missing. The README says how to install it (Printing on Windows and "
                "macOS); everything else works without it."
            )
        )
