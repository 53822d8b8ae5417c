"""A round's status and the one definition of a *started* round, shared by the rounds and the
tournament's status (which counts them) without either importing the other."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class RoundStatus(models.TextChoices):
    PLANNED = "planned", _("planned")
    DRAWN = "drawn", _("drawn")
    RELEASED = "released", _("released")
    CLOSED = "closed", _("closed")


# A round is started once it was released to the tables (its clock starts then, TSR 8.5.1): its
# games are being played (released) or done (closed). A drawn round is only a plan: its seats
# are not shown and may still be drawn again.
STARTED = (RoundStatus.RELEASED, RoundStatus.CLOSED)


def started(prefix: str = "") -> models.Q:
    """The condition "the round is started", on ``Round`` or through ``prefix`` (e.g.
    ``"rounds__"``, ``"table__round__"``)."""
    return models.Q(**{f"{prefix}status__in": STARTED})
