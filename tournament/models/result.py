from django.db import models
from django.utils.translation import gettext_lazy as _

from .round import Round
from .tournament import Entry


class RoundResult(models.Model):
    """An entry's result in one closed round, as the standings, the series and the federation
    export read it: written by the verb that closes the round and written anew by every verb
    that corrects the closed round (``tournament.domain.results``). Derived from the games and
    penalties, so it has no history of its own; ``manage.py checkresults`` compares it with
    them."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="results")
    points = models.IntegerField(_("points"))  # game points, without penalties
    penalties = models.IntegerField(_("penalty points"))
    games = models.PositiveSmallIntegerField(_("games played"))
    pflichtsoli = models.PositiveSmallIntegerField(_("Pflichtsoli played"))
    pflichtsoli_missing = models.PositiveSmallIntegerField(_("Pflichtsoli missing"))

    class Meta:
        verbose_name = _("round result")
        verbose_name_plural = _("round results")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="round_result_unique"),
        ]
        # Covers what the standings and the series read (a series of 50 tournaments reads
        # 30,000 rows): the table itself is not visited.
        indexes = [
            models.Index(
                fields=["round", "entry", "points", "penalties"], name="round_result_read"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} / {self.entry}: {self.points}"
