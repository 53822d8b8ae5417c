from .registration import EntryForm, ImportUploadForm
from .tournaments import TournamentForm

__all__ = ["EntryForm", "ImportUploadForm", "TournamentForm"]
