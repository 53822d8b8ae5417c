"""A personal confirmation code per entry, for confirming a Spielliste on the table's link.

Existing entries need their own random codes: a callable default on AddField is evaluated
once for the whole table, so the field comes in nullable, each row gets its own code
(distinct within its tournament), and only then does it become required. The code is not
tracked by the history (HistoricalEntry has no such column).
"""

import secrets
from collections import defaultdict

from django.db import migrations, models

import tournament.models.tournament

LOWEST, HIGHEST = 10000, 99999


def fill_codes(apps, schema_editor):
    Entry = apps.get_model("tournament", "Entry")
    by_tournament = defaultdict(list)
    for entry in Entry.objects.filter(confirm_code__isnull=True).only("pk", "tournament_id"):
        by_tournament[entry.tournament_id].append(entry)
    rng = secrets.SystemRandom()
    for entries in by_tournament.values():
        codes = rng.sample(range(LOWEST, HIGHEST + 1), len(entries))
        for entry, code in zip(entries, codes, strict=True):
            entry.confirm_code = str(code)
        Entry.objects.bulk_update(entries, ["confirm_code"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_sheet_changed_after_confirmation"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="confirm_code",
            field=models.CharField(
                editable=False, max_length=5, null=True, verbose_name="confirmation code"
            ),
        ),
        migrations.RunPython(fill_codes, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="entry",
            name="confirm_code",
            field=models.CharField(
                default=tournament.models.tournament.new_confirm_code,
                editable=False,
                max_length=5,
                verbose_name="confirmation code",
            ),
        ),
    ]
