from .entries import EntryForm, ImportUploadForm
from .series import SeriesForm
from .tournaments import TournamentForm

__all__ = ["EntryForm", "ImportUploadForm", "SeriesForm", "TournamentForm"]
