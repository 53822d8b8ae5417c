"""The audit trail: every history record also says in which role the change was made.

simple-history stores who (``history_user``), when (``history_date``, UTC), what (the row as
it was after the change; the one before it is the previous record) and why
(``history_change_reason``). This adds ``history_role``, set by :func:`record_role` for every
path that writes: the pages, the admin and the management commands.

Every write names its actor one way: the verb that saves calls :func:`stamp` with the acting
account (None for a list keeper's table link or a command) before ``save()``/``delete()``.
There is deliberately no ``simple_history.middleware.HistoryRequestMiddleware``: it filled
the user in from the request behind the verbs' backs, so a verb that forgot its actor still
looked right on a page and wrote "nobody" from a command or a background task. The admin
stamps its saves, reverts and deletes (with what they cascade to) itself
(``tournament.admin.AuditedAdmin``); a write without ``stamp`` records no user, role
"system", and the audit tests catch it.
"""

from typing import TypeVar

from django.db import models
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _
from simple_history.signals import pre_create_historical_record

# The two Django groups that carry the roles (created by migration 0002).
DIRECTOR_GROUP = "Turnierleitung"
REFEREE_GROUP = "Schiedsrichter"

LIST_KEEPER, DIRECTOR, REFEREE = "list-keeper", "director", "referee"
ADMINISTRATOR, SYSTEM, USER = "administrator", "system", "user"
PLAYER = "player"
ROLE_LABELS = {
    LIST_KEEPER: _("list keeper"),
    DIRECTOR: _("director"),
    REFEREE: _("referee"),
    ADMINISTRATOR: _("administrator"),
    SYSTEM: _("system (command line)"),
    USER: _("user"),
    PLAYER: _("player (personal link)"),
}


def role_label(code: str) -> str:
    return str(ROLE_LABELS.get(code, code))


class AuditRole(models.Model):
    history_role = models.CharField(max_length=20, blank=True)

    class Meta:
        abstract = True


def role_of(user) -> str:
    """The role of an account, as the history records it; no account: a command."""
    if user is None:
        return SYSTEM
    if user.is_superuser:
        return ADMINISTRATOR
    groups = set(user.groups.values_list("name", flat=True))
    if DIRECTOR_GROUP in groups:
        return DIRECTOR
    if REFEREE_GROUP in groups:
        return REFEREE
    return USER


Model = TypeVar("Model", bound=models.Model)


def stamp(instance: Model, user, reason: str = "", *, role: str = "") -> Model:
    """Say who changes ``instance`` and why, for the history record its next ``save()`` or
    ``delete()`` writes: the one way every write path names its actor. ``user`` is the account
    (None for a list keeper's table link or a command), ``reason`` the change reason shown in
    the history, ``role`` one of the role codes above when it is not the account's own role
    (a list keeper has no account)."""
    instance._history_user = user  # type: ignore[attr-defined]  # simple-history's hook
    instance._change_reason = reason  # type: ignore[attr-defined]
    instance._history_role = role  # type: ignore[attr-defined]  # "" = the account's own role
    return instance


@receiver(pre_create_historical_record)
def record_role(sender, instance, history_instance, history_user=None, **kwargs) -> None:
    if not isinstance(history_instance, AuditRole):
        return
    role = getattr(instance, "_history_role", "") or role_of(history_user)
    history_instance.history_role = role
