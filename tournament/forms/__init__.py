from .registration import EntryForm, ImportUploadForm, TournamentForm

__all__ = ["EntryForm", "ImportUploadForm", "TournamentForm"]
