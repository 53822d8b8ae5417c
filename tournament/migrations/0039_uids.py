"""A uid for tournaments, players and series: the same one on every laptop and on the results
service (tournament/archive). Existing rows each get their own."""

import uuid

from django.db import migrations, models


def fill(apps, schema_editor):
    for name in ("Tournament", "Player", "Series"):
        model = apps.get_model("tournament", name)
        for pk in model.objects.values_list("pk", flat=True):
            model.objects.filter(pk=pk).update(uid=uuid.uuid4())
    for name in ("HistoricalTournament", "HistoricalPlayer", "HistoricalSeries"):
        model = apps.get_model("tournament", name)
        current = apps.get_model("tournament", name.removeprefix("Historical"))
        uids = dict(current.objects.values_list("pk", "uid"))
        for row in model.objects.values_list("history_id", "id"):
            model.objects.filter(history_id=row[0]).update(uid=uids.get(row[1], uuid.uuid4()))


class Migration(migrations.Migration):
    dependencies = [("tournament", "0038_moved_task_paths")]

    operations = [
        *[
            migrations.AddField(model_name=name, name="uid", field=models.UUIDField(null=True))
            for name in (
                "tournament",
                "player",
                "series",
                "historicaltournament",
                "historicalplayer",
                "historicalseries",
            )
        ],
        migrations.RunPython(fill, migrations.RunPython.noop),
        *[
            migrations.AlterField(
                model_name=name,
                name="uid",
                field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
            )
            for name in ("tournament", "player", "series")
        ],
        *[
            migrations.AlterField(
                model_name=name,
                name="uid",
                field=models.UUIDField(db_index=True, default=uuid.uuid4, editable=False),
            )
            for name in ("historicaltournament", "historicalplayer", "historicalseries")
        ],
    ]
