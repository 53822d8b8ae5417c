"""Publishing to the results service from the hall: the target, the per-tournament opt-in
and delay, and the outbox (Publication, PublishChange)."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0040_service'),
    ]

    operations = [
        migrations.CreateModel(
            name='PublishingTarget',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('url', models.URLField(blank=True, max_length=300, verbose_name='address of the results service')),
                ('key', models.CharField(blank=True, max_length=200, verbose_name='publishing key')),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'verbose_name': 'results service',
                'verbose_name_plural': 'results service',
            },
        ),
        migrations.AddField(
            model_name='historicaltournament',
            name='publish_closed_rounds_only',
            field=models.BooleanField(default=False, help_text='The results of a round being played stay in the hall until it is closed.', verbose_name='publish closed rounds only'),
        ),
        migrations.AddField(
            model_name='historicaltournament',
            name='publish_delay_minutes',
            field=models.PositiveSmallIntegerField(default=0, help_text="0: at once. Otherwise a round's results go online only this many minutes after the round is closed; the table plan goes online at once.", validators=[django.core.validators.MaxValueValidator(1440)], verbose_name='publish results after (minutes)'),
        ),
        migrations.AddField(
            model_name='historicaltournament',
            name='publish_results',
            field=models.BooleanField(default=False, help_text='Whenever the public pages change, the laptop sends them to the results service as soon as it has a connection (see Results service).', verbose_name='publish on the results service'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='publish_closed_rounds_only',
            field=models.BooleanField(default=False, help_text='The results of a round being played stay in the hall until it is closed.', verbose_name='publish closed rounds only'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='publish_delay_minutes',
            field=models.PositiveSmallIntegerField(default=0, help_text="0: at once. Otherwise a round's results go online only this many minutes after the round is closed; the table plan goes online at once.", validators=[django.core.validators.MaxValueValidator(1440)], verbose_name='publish results after (minutes)'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='publish_results',
            field=models.BooleanField(default=False, help_text='Whenever the public pages change, the laptop sends them to the results service as soon as it has a connection (see Results service).', verbose_name='publish on the results service'),
        ),
        migrations.CreateModel(
            name='Publication',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('sequence', models.PositiveBigIntegerField(default=0)),
                ('digest', models.CharField(blank=True, max_length=64)),
                ('built_state', models.JSONField(blank=True, default=list)),
                ('built_at', models.DateTimeField(blank=True, null=True)),
                ('due_at', models.DateTimeField(blank=True, null=True)),
                ('sent_sequence', models.PositiveBigIntegerField(default=0)),
                ('sent_at', models.DateTimeField(blank=True, null=True)),
                ('sent_snapshot_at', models.DateTimeField(blank=True, null=True)),
                ('public_url', models.CharField(blank=True, max_length=500)),
                ('last_error', models.CharField(blank=True, max_length=40)),
                ('last_error_detail', models.CharField(blank=True, max_length=300)),
                ('attempts', models.PositiveIntegerField(default=0)),
                ('next_try_at', models.DateTimeField(blank=True, null=True)),
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='publication', to='tournament.tournament')),
            ],
            options={
                'verbose_name': 'publication',
                'verbose_name_plural': 'publications',
            },
        ),
        migrations.CreateModel(
            name='PublishChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('sequence', models.PositiveBigIntegerField()),
                ('created_at', models.DateTimeField()),
                ('digest', models.CharField(max_length=64)),
                ('body', models.BinaryField(blank=True)),
                ('sent_at', models.DateTimeField(blank=True, null=True)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='publish_changes', to='tournament.tournament')),
            ],
            options={
                'verbose_name': 'change to publish',
                'verbose_name_plural': 'changes to publish',
                'ordering': ['tournament', 'sequence'],
                'constraints': [models.UniqueConstraint(fields=('tournament', 'sequence'), name='publish_change_sequence_unique')],
            },
        ),
    ]
