"""Penalties are numbered per tournament ("Strafe Nr. 1" is the first of this tournament, not
of every tournament in the database).

A penalty keeps its tournament (the one of its table's round) so that its number can be
unique per tournament by a constraint. Existing penalties are numbered per tournament in the
order they were entered; their history records get the same tournament and number. History
records of penalties that no longer exist (a deleted round) get number 0.
"""

from collections import defaultdict

import django.db.models.deletion
from django.db import migrations, models


def number_penalties(apps, schema_editor):
    Penalty = apps.get_model("tournament", "Penalty")
    HistoricalPenalty = apps.get_model("tournament", "HistoricalPenalty")
    counters = defaultdict(int)
    numbered = {}  # penalty id -> (tournament id, number)
    penalties = list(
        Penalty.objects.select_related("table__round").order_by("created_at", "pk")
    )
    for penalty in penalties:
        tournament_id = penalty.table.round.tournament_id
        counters[tournament_id] += 1
        penalty.tournament_id, penalty.number = tournament_id, counters[tournament_id]
        numbered[penalty.pk] = (tournament_id, penalty.number)
    Penalty.objects.bulk_update(penalties, ["tournament", "number"], batch_size=500)
    records = list(HistoricalPenalty.objects.only("history_id", "id"))
    for record in records:
        record.tournament_id, record.number = numbered.get(record.id, (None, 0))
    HistoricalPenalty.objects.bulk_update(records, ["tournament", "number"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0011_entry_confirm_code"),
    ]

    operations = [
        migrations.AddField(
            model_name="penalty",
            name="tournament",
            field=models.ForeignKey(
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="penalties",
                to="tournament.tournament",
            ),
        ),
        migrations.AddField(
            model_name="penalty",
            name="number",
            field=models.PositiveIntegerField(
                editable=False, null=True, verbose_name="penalty no."
            ),
        ),
        migrations.AddField(
            model_name="historicalpenalty",
            name="tournament",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="tournament.tournament",
            ),
        ),
        migrations.AddField(
            model_name="historicalpenalty",
            name="number",
            field=models.PositiveIntegerField(
                editable=False, null=True, verbose_name="penalty no."
            ),
        ),
        migrations.RunPython(number_penalties, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="penalty",
            name="tournament",
            field=models.ForeignKey(
                editable=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="penalties",
                to="tournament.tournament",
            ),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="number",
            field=models.PositiveIntegerField(editable=False, verbose_name="penalty no."),
        ),
        migrations.AlterField(
            model_name="historicalpenalty",
            name="number",
            field=models.PositiveIntegerField(editable=False, verbose_name="penalty no."),
        ),
        migrations.AddConstraint(
            model_name="penalty",
            constraint=models.UniqueConstraint(
                fields=("tournament", "number"), name="penalty_number_unique_per_tournament"
            ),
        ),
        migrations.AddConstraint(
            model_name="penalty",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="penalty_number_min"
            ),
        ),
    ]
