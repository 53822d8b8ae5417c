"""The Spielliste becomes its own aggregate: the workflow fields move from Table to Sheet (one
per table, keyed by it). Every table's values are copied, and so is the history of those
fields, so that who submitted and confirmed stays on record."""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models


WORKFLOW = [
    "submitted_at",
    "submitted_by",
    "submitted_start_number",
    "confirmed_at",
    "confirmed_by",
    "changed_after_confirmation",
    "extra_minutes",
    "extra_reason",
    "time_limit_from",
    "struck_games",
]
HISTORY = ["history_date", "history_change_reason", "history_type", "history_user_id"]


def tables_to_sheets(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    Sheet = apps.get_model("tournament", "Sheet")
    HistoricalTable = apps.get_model("tournament", "HistoricalTable")
    HistoricalSheet = apps.get_model("tournament", "HistoricalSheet")
    fields = ["id", "sheet_status", *WORKFLOW]
    Sheet.objects.bulk_create(
        (
            Sheet(table_id=row["id"], status=row["sheet_status"], **{f: row[f] for f in WORKFLOW})
            for row in Table.objects.values(*fields).iterator()
        ),
        batch_size=500,
    )
    HistoricalSheet.objects.bulk_create(
        (
            HistoricalSheet(
                table_id=row["id"],
                status=row["sheet_status"],
                **{f: row[f] for f in WORKFLOW + HISTORY},
            )
            for row in HistoricalTable.objects.order_by("history_id")
            .values(*fields, *HISTORY)
            .iterator()
        ),
        batch_size=500,
    )


def sheets_to_tables(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    Sheet = apps.get_model("tournament", "Sheet")
    HistoricalTable = apps.get_model("tournament", "HistoricalTable")
    HistoricalSheet = apps.get_model("tournament", "HistoricalSheet")
    for row in Sheet.objects.values("table_id", "status", *WORKFLOW).iterator():
        Table.objects.filter(pk=row["table_id"]).update(
            sheet_status=row["status"], **{f: row[f] for f in WORKFLOW}
        )
    # The forward step copied each table record to a sheet record with the same table, time
    # and type: those find their table record again, so who submitted and confirmed stays.
    records = HistoricalSheet.objects.values(
        "table_id", "history_date", "history_type", "status", *WORKFLOW
    )
    for row in records.iterator():
        HistoricalTable.objects.filter(
            id=row["table_id"], history_date=row["history_date"], history_type=row["history_type"]
        ).update(sheet_status=row["status"], **{f: row[f] for f in WORKFLOW})


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0015_referee_call_history'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='HistoricalSheet',
            fields=[
                ('history_role', models.CharField(blank=True, max_length=20)),
                ('status', models.CharField(choices=[('open', 'open'), ('submitted', 'submitted'), ('confirmed', 'confirmed')], default='open', max_length=10, verbose_name='sheet')),
                ('submitted_at', models.DateTimeField(blank=True, null=True, verbose_name='submitted')),
                ('submitted_by', models.CharField(blank=True, max_length=100, verbose_name='submitted by')),
                ('submitted_start_number', models.PositiveIntegerField(blank=True, editable=False, null=True)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='confirmed')),
                ('confirmed_by', models.CharField(blank=True, max_length=100, verbose_name='confirmed by')),
                ('changed_after_confirmation', models.BooleanField(default=False, verbose_name='changed after confirmation')),
                ('extra_minutes', models.PositiveSmallIntegerField(default=0, verbose_name='extra time (minutes)')),
                ('extra_reason', models.CharField(blank=True, max_length=200, verbose_name='reason for the extra time')),
                ('time_limit_from', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='first game after the time limit')),
                ('struck_games', models.PositiveSmallIntegerField(default=0, verbose_name='struck games')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.TextField(null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
            ],
            options={
                'verbose_name': 'historical sheet',
                'verbose_name_plural': 'historical sheets',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='Sheet',
            fields=[
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='sheet', serialize=False, to='tournament.table')),
                ('status', models.CharField(choices=[('open', 'open'), ('submitted', 'submitted'), ('confirmed', 'confirmed')], default='open', max_length=10, verbose_name='sheet')),
                ('submitted_at', models.DateTimeField(blank=True, null=True, verbose_name='submitted')),
                ('submitted_by', models.CharField(blank=True, max_length=100, verbose_name='submitted by')),
                ('submitted_start_number', models.PositiveIntegerField(blank=True, editable=False, null=True)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='confirmed')),
                ('confirmed_by', models.CharField(blank=True, max_length=100, verbose_name='confirmed by')),
                ('changed_after_confirmation', models.BooleanField(default=False, verbose_name='changed after confirmation')),
                ('extra_minutes', models.PositiveSmallIntegerField(default=0, verbose_name='extra time (minutes)')),
                ('extra_reason', models.CharField(blank=True, max_length=200, verbose_name='reason for the extra time')),
                ('time_limit_from', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='first game after the time limit')),
                ('struck_games', models.PositiveSmallIntegerField(default=0, verbose_name='struck games')),
            ],
            options={
                'verbose_name': 'sheet',
                'verbose_name_plural': 'sheets',
                'ordering': ['table'],
            },
        ),
        migrations.AddField(
            model_name='historicalsheet',
            name='history_user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='historicalsheet',
            name='table',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournament.table'),
        ),
        migrations.AddConstraint(
            model_name='sheet',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['open', 'submitted', 'confirmed'])), name='sheet_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='sheet',
            constraint=models.CheckConstraint(condition=models.Q(('time_limit_from__isnull', True), ('time_limit_from__gte', 1), _connector='OR'), name='sheet_time_limit_from_min'),
        ),
        migrations.RunPython(tables_to_sheets, sheets_to_tables),
        migrations.RemoveConstraint(
            model_name='table',
            name='table_sheet_valid',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='changed_after_confirmation',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='confirmed_at',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='confirmed_by',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='extra_minutes',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='extra_reason',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='sheet_status',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='struck_games',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='submitted_at',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='submitted_by',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='submitted_start_number',
        ),
        migrations.RemoveField(
            model_name='historicaltable',
            name='time_limit_from',
        ),
        migrations.RemoveField(
            model_name='table',
            name='changed_after_confirmation',
        ),
        migrations.RemoveField(
            model_name='table',
            name='confirmed_at',
        ),
        migrations.RemoveField(
            model_name='table',
            name='confirmed_by',
        ),
        migrations.RemoveField(
            model_name='table',
            name='extra_minutes',
        ),
        migrations.RemoveField(
            model_name='table',
            name='extra_reason',
        ),
        migrations.RemoveField(
            model_name='table',
            name='sheet_status',
        ),
        migrations.RemoveField(
            model_name='table',
            name='struck_games',
        ),
        migrations.RemoveField(
            model_name='table',
            name='submitted_at',
        ),
        migrations.RemoveField(
            model_name='table',
            name='submitted_by',
        ),
        migrations.RemoveField(
            model_name='table',
            name='submitted_start_number',
        ),
        migrations.RemoveField(
            model_name='table',
            name='time_limit_from',
        ),
    ]
