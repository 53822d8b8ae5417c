"""What leaves the site as a file or a table: standings, rounds, penalties, print pack and
player cards.

``rows`` reads the tournament into plain rows of typed cells (one source for the standings
page, the PDF and the Excel file); ``html``, ``xlsx`` and ``pdf`` write rows out; ``printpack``
and ``cards`` are the documents printed for the tournament office. Nothing here changes data.
"""

from ..errors import DomainError

# The address prefix of the images made for one document (QR codes as PNG): the template
# writes GENERATED + name, and pdf.render_pdf serves the image of that name and nothing
# else. Not a scheme that WeasyPrint or urllib knows: never joined with a base URL.
GENERATED = "kreuzdame-generated:"


class PdfUnavailable(DomainError):
    """PDFs cannot be made on this computer: WeasyPrint's Pango library is missing."""

    def __init__(self, message: str = "") -> None:
        from django.utils.translation import gettext

        super().__init__(
            message
            or gettext(
                "PDF files cannot be made on this computer: the Pango library they are drawn "
                "with is missing. The README says how to install it (Printing on Windows and "
                "macOS); everything else works without it."
            )
        )
