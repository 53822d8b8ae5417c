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

Why a change was made is stored as words only when a person typed them. What the site says
itself ("withdrawn by the director", "entry fee", "merged into player 12 (…): reason") is
stored as an :class:`Event`: a code of :data:`EVENTS` and its parameters
(``history_event``, ``history_params``), and :func:`history_reason` writes it in the
language of whoever reads the history. Lines stored as text before (migration 0034 turned
those it recognised into events) are shown as they were written.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

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


# The history lines the site writes itself, by a stable code (stored), each with the words
# it stands for and their parameters. A parameter is a text, a number, or another event (a
# merge note's reason may be "identity accepted by the director"). Codes stay: a stored line
# keeps its code for ever; new words get a new code.
EVENTS = {
    "all-present": _("all present"),
    "entry-fee": _("entry fee"),
    "entry-corrected": _("entry corrected"),
    "withdrawn-by-director": _("withdrawn by the director"),
    "readmitted-by-director": _("re-admitted by the director"),
    "consent-given": _("consent to publication given"),
    "consent-withdrawn": _("consent to publication withdrawn"),
    "registered-online": _("registered online"),
    "registered-again-online": _("registered again online"),
    "device-paired": _("paired by its code"),
    "device-paired-again": _("the device was paired again"),
    "device-revoked": _("revoked by the tournament office"),
    "changed-online": _("changed online by the player"),
    "moved-up": _("moved up from the waiting list"),
    "moved-on-waiting-list": _("moved on the waiting list"),
    "cancelled-online": _("cancelled online"),
    "cancelled-by-director": _("cancelled by the director"),
    "confirmed-by-director": _("confirmed by the director"),
    "declined-by-director": _("declined by the director"),
    "identity-accepted": _("identity accepted by the director"),
    "replaced-by-player": _("replaced by player %(id)s: %(reason)s"),
    "merged-into-player": _("merged into player %(id)s (%(name)s): %(reason)s"),
    "merged-with-player": _("merged with player %(id)s (%(name)s): %(reason)s"),
    "merged-with-entry": _("merged with the entry of player %(id)s: %(reason)s"),
    "removed-registered-twice": _(
        "removed: registered twice (merged into player %(id)s): %(reason)s"
    ),
    "cancelled-registered-twice": _(
        "cancelled: registered twice (merged into player %(id)s): %(reason)s"
    ),
    "now-entry-of-player": _("now the entry of player %(id)s (merged): %(reason)s"),
    "penalty-signed": _("signed"),
    "penalty-replaces-revoked": _("replaces a revoked penalty"),
    "disqualified-by-referee": _("disqualified by a referee (penalty %(id)s)"),
    "disqualification-revoked": _("disqualification revoked: %(reason)s"),
    "call-handled": _("handled"),
    "call-closed-with-round": _("closed with the round"),
    "referee-added": _("referee added: %(name)s"),
    "referee-removed": _("referee removed: %(name)s"),
    "code-renewed": _("confirmation code renewed at table %(table)s"),
    "row-removed": _("removed"),
    "changed-after-confirmation": _("changed after confirmation"),
    "changed-after-confirmation-again": _("changed after confirmation: to be confirmed again"),
    # Seat wishes (issue 39): the start numbers of the group.
    "never-together-added": _("never at one table: %(numbers)s"),
    "never-together-removed": _("never at one table removed: %(numbers)s"),
    "fixed-table-set": _("fixed table %(table)s"),
    "fixed-table-cleared": _("fixed table removed"),
    # What a seat wish's history line says once the personal data are deleted (its numbers
    # and table said who the wish was about).
    "seat-wish-deleted": _("seat wish (deleted with the personal data)"),
    # Who changed a Spielliste row (a name, or a list keeper's label in the site's language),
    # why and what it did to the confirmation: "leitung: typo · changed after confirmation".
    "by": "%(actor)s",
}


@dataclass(frozen=True)
class Event:
    """A history line the site writes itself: a code of :data:`EVENTS` and its parameters,
    stored as such and written in the reader's language when the history is read."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in EVENTS:
            raise ValueError(f"unknown history event {self.code!r}")

    def stored(self) -> dict | None:
        """The parameters as stored (JSON): a nested event as {"event": code, "params": …}."""
        if not self.params:
            return None
        return {key: _stored_value(value) for key, value in self.params.items()}

    def __str__(self) -> str:
        return render_event(self.code, self.stored())


def event(code: str, **params: Any) -> Event:
    """``event("merged-into-player", id=12, name="Anna Schäfer", reason=typed)``."""
    return Event(code, params)


def _stored_value(value: Any) -> Any:
    if isinstance(value, Event):
        return {"event": value.code, "params": value.stored()}
    return value if isinstance(value, int | float | bool | type(None)) else str(value)


def render_event(code: str, params: Mapping[str, Any] | None) -> str:
    """A stored event in the active language; an unknown code is shown as it is."""
    text = EVENTS.get(code)
    if text is None:
        return code
    if not params:
        return str(text)
    values = {key: _shown_value(value) for key, value in params.items()}
    if code == "by":
        said = str(values.get("actor", ""))
        said = f"{said}: {values['reason']}" if values.get("reason") else said
        return f"{said} · {values['note']}" if values.get("note") else said
    try:
        return str(text) % values
    except (KeyError, TypeError, ValueError):
        return str(text)


def _shown_value(value: Any) -> Any:
    if isinstance(value, dict) and "event" in value:
        return render_event(str(value["event"]), value.get("params"))
    return value


def history_reason(record) -> str:
    """Why a history record's change was made, in the reader's language: the event the site
    stored, or the text a person typed (or an old line kept as it was written)."""
    code = getattr(record, "history_event", "")
    if code:
        return render_event(code, getattr(record, "history_params", None))
    return record.history_change_reason or ""


class AuditEvent(models.Model):
    """The fields of a history record that hold an :class:`Event`."""

    history_event = models.CharField(max_length=40, blank=True, default="")
    history_params = models.JSONField(null=True, blank=True)

    class Meta:
        abstract = True


class AuditRole(AuditEvent):
    history_role = models.CharField(max_length=20, blank=True)

    class Meta:
        abstract = True


def group_names(user) -> frozenset[str]:
    """The names of ``user``'s groups, read once per user object (a page asks often)."""
    if not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_kreuzdame_groups", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._kreuzdame_groups = cached
    return cached


def role_of(user) -> str:
    """The role of an account: the one place that decides it, from the superuser flag and
    the two groups. The history records it; ``tournament.permissions`` derives who may do
    what from it. No account: a command."""
    if user is None:
        return SYSTEM
    if user.is_superuser:
        return ADMINISTRATOR
    groups = group_names(user)
    if DIRECTOR_GROUP in groups:
        return DIRECTOR
    if REFEREE_GROUP in groups:
        return REFEREE
    return USER


# The same decision as a filter of the user table: the accounts that may direct a
# tournament (role_of says DIRECTOR or ADMINISTRATOR).
DIRECTOR_ACCOUNTS = models.Q(is_superuser=True) | models.Q(groups__name=DIRECTOR_GROUP)


Model = TypeVar("Model", bound=models.Model)


Reason = str | Event


def stamp(instance: Model, user, reason: Reason = "", *, role: str = "") -> Model:
    """Say who changes ``instance`` and why, for the history record its next ``save()`` or
    ``delete()`` writes: the one way every write path names its actor. ``user`` is the account
    (None for a list keeper's table link or a command), ``reason`` the change reason shown in
    the history: an :class:`Event` when the site says it, a text when a person typed it;
    ``role`` one of the role codes above when it is not the account's own role (a list keeper
    has no account)."""
    instance._history_user = user  # type: ignore[attr-defined]  # simple-history's hook
    if isinstance(reason, Event):
        instance._change_reason = ""  # type: ignore[attr-defined]
        instance._history_event = reason  # type: ignore[attr-defined]
    else:
        instance._change_reason = reason  # type: ignore[attr-defined]
        instance._history_event = None  # type: ignore[attr-defined]
    instance._history_role = role  # type: ignore[attr-defined]  # "" = the account's own role
    return instance


def record_columns(user, reason: Reason = "", role: str = "") -> dict[str, Any]:
    """The audit columns of a history record written without an instance
    (``tournament.domain.bulk``): what :func:`stamp` and :func:`record_role` put into the
    record of a ``save()``, the same way (``role`` "": the account's own role)."""
    if isinstance(reason, Event):
        said = {"history_change_reason": "", "history_event": reason.code,
                "history_params": reason.stored()}  # fmt: skip
    else:
        said = {"history_change_reason": reason, "history_event": "", "history_params": None}
    return {
        "history_user_id": user.pk if user is not None else None,
        "history_role": role or role_of(user),
        **said,
    }


@receiver(pre_create_historical_record)
def record_role(sender, instance, history_instance, history_user=None, **kwargs) -> None:
    if isinstance(history_instance, AuditEvent):
        happened = getattr(instance, "_history_event", None)
        history_instance.history_event = happened.code if happened else ""
        history_instance.history_params = happened.stored() if happened else None
    if not isinstance(history_instance, AuditRole):
        return
    role = getattr(instance, "_history_role", "") or role_of(history_user)
    history_instance.history_role = role
