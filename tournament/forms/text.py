"""One rule for the text people type into a form (names, clubs, titles, reasons): it ends up
in mails, PDFs, CSV files and logs, where a line feed starts a new header or line, a tab a new
column, and an invisible character (a bidi override such as U+202E) makes a text read
differently from what it is. Such characters are refused at the form with a message, so that
nothing downstream needs to guess.

Refused: every Unicode control (Cc: C0 and C1, tab, line feed, carriage return), every format
character (Cf: bidi controls, zero-width characters, the byte-order mark), the line and
paragraph separators (Zl, Zp) and lone surrogates (Cs). A text area may keep its line breaks
(:func:`no_control_characters_except_line_breaks`).
"""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ..models.names import has_control_characters

MESSAGE = _(
    "Please leave out line breaks, tabs and invisible control characters "
    "(such as text-direction marks)."
)


def no_control_characters(value: str) -> None:
    """The validator of a one-line field."""
    if has_control_characters(value):
        raise ValidationError(MESSAGE, code="control")


def no_control_characters_except_line_breaks(value: str) -> None:
    """The validator of a text area: its line breaks (LF or CR LF) are kept."""
    if has_control_characters(value.replace("\r\n", "\n"), line_breaks=True):
        raise ValidationError(MESSAGE, code="control")


class LineField(forms.CharField):
    """A one-line text field (a name, a club, a title, a reason) that refuses control and
    format characters."""

    default_validators = [no_control_characters]


class TextAreaField(forms.CharField):
    """A multi-line text field: line breaks are kept (as LF), other control and format
    characters are refused."""

    default_validators = [no_control_characters_except_line_breaks]

    def to_python(self, value):
        text = super().to_python(value)
        return text.replace("\r\n", "\n") if isinstance(text, str) else text
