"""History lines as events (issue 35): what the site wrote itself into a history record's
change reason ("von der Turnierleitung zurückgezogen", "Startgeld", "merged into player 12
(Anna Schäfer): same person") becomes an event code with its parameters, so that the history
is read in the reader's language. Old lines are recognised in every language of the site (a
line was written in the language of whoever made the change); a reason somebody typed, and
anything not recognised, stays as it was written. Backwards, events are written out in the
site's language again."""

import re

from django.conf import settings
from django.db import migrations, models
from django.utils import translation

# The events and their words as of this migration (tournament/models/audit.py, EVENTS):
# a copy, so that later changes to the site do not change what this migration does.
EVENTS = {
    "all-present": "all present",
    "entry-fee": "entry fee",
    "entry-corrected": "entry corrected",
    "withdrawn-by-director": "withdrawn by the director",
    "readmitted-by-director": "re-admitted by the director",
    "consent-given": "consent to publication given",
    "consent-withdrawn": "consent to publication withdrawn",
    "registered-online": "registered online",
    "registered-again-online": "registered again online",
    "changed-online": "changed online by the player",
    "moved-up": "moved up from the waiting list",
    "moved-on-waiting-list": "moved on the waiting list",
    "cancelled-online": "cancelled online",
    "cancelled-by-director": "cancelled by the director",
    "confirmed-by-director": "confirmed by the director",
    "declined-by-director": "declined by the director",
    "identity-accepted": "identity accepted by the director",
    "replaced-by-player": "replaced by player %(id)s: %(reason)s",
    "merged-into-player": "merged into player %(id)s (%(name)s): %(reason)s",
    "merged-with-player": "merged with player %(id)s (%(name)s): %(reason)s",
    "merged-with-entry": "merged with the entry of player %(id)s: %(reason)s",
    "removed-registered-twice": (
        "removed: registered twice (merged into player %(id)s): %(reason)s"
    ),
    "cancelled-registered-twice": (
        "cancelled: registered twice (merged into player %(id)s): %(reason)s"
    ),
    "now-entry-of-player": "now the entry of player %(id)s (merged): %(reason)s",
    "penalty-signed": "signed",
    "penalty-replaces-revoked": "replaces a revoked penalty",
    "disqualified-by-referee": "disqualified by a referee (penalty %(id)s)",
    "disqualification-revoked": "disqualification revoked: %(reason)s",
    "call-handled": "handled",
    "call-closed-with-round": "closed with the round",
    "referee-added": "referee added: %(name)s",
    "referee-removed": "referee removed: %(name)s",
    "code-renewed": "confirmation code renewed at table %(table)s",
    "row-removed": "removed",
    "changed-after-confirmation": "changed after confirmation",
    "changed-after-confirmation-again": "changed after confirmation: to be confirmed again",
    "by": "%(actor)s",
}
HISTORIES = (
    "historicalentry",
    "historicalgame",
    "historicalpenalty",
    "historicalplayer",
    "historicalrefereecall",
    "historicalregistration",
    "historicalround",
    "historicalseat",
    "historicalseries",
    "historicalsheet",
    "historicaltable",
    "historicalteam",
    "historicaltournament",
)
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _pattern(words: str) -> re.Pattern:
    parts, last = [], 0
    for match in PLACEHOLDER.finditer(words):
        parts.append(re.escape(words[last : match.start()]))
        name = match.group(1)
        parts.append(rf"(?P<{name}>\d+)" if name == "id" else rf"(?P<{name}>.*?)")
        last = match.end()
    parts.append(re.escape(words[last:]))
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def _patterns() -> list[tuple[str, re.Pattern]]:
    """Every event in every language of the site, each matching a whole line only."""
    found = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for code, words in EVENTS.items():
                if code != "by":  # a composed line: see _recognise_by_line
                    found.append((code, _pattern(translation.gettext(words))))
    return found


def _recognise(text: str, patterns) -> dict | None:
    """{"event": code, "params": …} for a line the site wrote, or None."""
    for code, pattern in patterns:
        match = pattern.match(text)
        if match is None:
            continue
        params = {}
        for name, value in match.groupdict().items():
            if name == "id":
                params[name] = int(value)
            elif name == "reason":
                params[name] = _recognise(value, patterns) or value
            else:
                params[name] = value
        return {"event": code, "params": params or None}
    return None


# A Spielliste row's line (and an entry's when the office renewed a table's codes) was
# "who: reason · what it did to the confirmation" (the sheet verbs' _stamp): who is a user
# name or a list keeper's label (kept as written: the pages write a keeper's label in the
# reader's language), the reason typed or the site's ("removed").
BY_HISTORIES = ("historicalgame", "historicalsheet", "historicalentry")
NOTES = ("changed-after-confirmation", "changed-after-confirmation-again")


def _notes() -> dict[str, str]:
    """The confirmation notes in every language of the site -> their code."""
    found = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for code in NOTES:
                found[translation.gettext(EVENTS[code])] = code
    return found


def _recognise_by_line(text: str, patterns, notes) -> dict | None:
    """{"event": "by", "params": …} for such a line with the site's words in it, or None
    (who and a typed reason read the same as they are)."""
    params: dict = {}
    for note, code in sorted(notes.items(), key=lambda item: -len(item[0])):
        if text.endswith(" · " + note):
            params["note"] = {"event": code, "params": None}
            text = text[: -len(" · " + note)]
            break
    actor, colon, reason = text.partition(": ")
    if colon:
        params["reason"] = _recognise(reason, patterns) or reason
    if "note" not in params and not isinstance(params.get("reason"), dict):
        return None
    return {"event": "by", "params": {"actor": actor, **params}}


def to_events(apps, schema_editor):
    patterns = _patterns()
    notes = _notes()
    for name in HISTORIES:
        model = apps.get_model("tournament", name)
        lines = model.objects.exclude(history_change_reason__isnull=True).exclude(
            history_change_reason=""
        )
        for pk, text in lines.values_list("pk", "history_change_reason").iterator():
            found = _recognise(text.strip(), patterns)
            if found is None and name in BY_HISTORIES:
                found = _recognise_by_line(text.strip(), patterns, notes)
            if found is not None:
                model.objects.filter(pk=pk).update(
                    history_event=found["event"],
                    history_params=found["params"],
                    history_change_reason="",
                )


def _written(code: str, params: dict | None) -> str:
    words = translation.gettext(EVENTS.get(code, code))
    if not params:
        return words
    values = {
        key: _written(value["event"], value.get("params"))
        if isinstance(value, dict) and "event" in value
        else value
        for key, value in params.items()
    }
    if code == "by":
        said = str(values.get("actor", ""))
        said = f"{said}: {values['reason']}" if values.get("reason") else said
        return f"{said} · {values['note']}" if values.get("note") else said
    try:
        return words % values
    except (KeyError, TypeError, ValueError):
        return words


def to_text(apps, schema_editor):
    with translation.override(settings.LANGUAGE_CODE):
        for name in HISTORIES:
            model = apps.get_model("tournament", name)
            lines = model.objects.exclude(history_event="")
            for pk, code, params in lines.values_list(
                "pk", "history_event", "history_params"
            ).iterator():
                model.objects.filter(pk=pk).update(history_change_reason=_written(code, params))


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0033_table_devices"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalentry",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalentry",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalgame",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalgame",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalpenalty",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalpenalty",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalplayer",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalplayer",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalrefereecall",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalrefereecall",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalregistration",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalregistration",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalround",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalround",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalseat",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalseat",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalseries",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalseries",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalsheet",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalsheet",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicaltable",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicaltable",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalteam",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicalteam",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicaltournament",
            name="history_event",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="historicaltournament",
            name="history_params",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(to_events, to_text),
    ]
