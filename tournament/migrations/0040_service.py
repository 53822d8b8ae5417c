"""The results service (tournament/service): clubs, their publishing keys, the clubs' player
uids (PlayerOrigin), and on tournaments and series the club that publishes them; on a
tournament also which published state it shows (time, sequence number, digest, hall slug)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0039_uids'),
    ]

    operations = [
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=150, verbose_name='name')),
                ('slug', models.SlugField(max_length=40, unique=True, verbose_name='short name (URL)')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'verbose_name': 'club',
                'verbose_name_plural': 'clubs',
                'ordering': ['name', 'pk'],
            },
        ),
        migrations.AddField(
            model_name='tournament',
            name='published_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='published state of'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='published_digest',
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name='tournament',
            name='published_sequence',
            field=models.BigIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='tournament',
            name='published_slug',
            field=models.SlugField(blank=True, editable=False, max_length=60),
        ),
        migrations.AddField(
            model_name='historicalseries',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournament.club', verbose_name='published by club'),
        ),
        migrations.AddField(
            model_name='historicaltournament',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournament.club', verbose_name='published by club'),
        ),
        migrations.AddField(
            model_name='series',
            name='club',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='series', to='tournament.club', verbose_name='published by club'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='club',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='tournament.club', verbose_name='published by club'),
        ),
        migrations.CreateModel(
            name='PublishingKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key_id', models.CharField(max_length=32, unique=True, verbose_name='key id')),
                ('secret', models.CharField(editable=False, max_length=128)),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked')),
                ('last_used_at', models.DateTimeField(blank=True, null=True, verbose_name='last used')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='keys', to='tournament.club', verbose_name='club')),
            ],
            options={
                'verbose_name': 'publishing key',
                'verbose_name_plural': 'publishing keys',
                'ordering': ['club', '-created_at', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='PlayerOrigin',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('uid', models.UUIDField()),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='player_origins', to='tournament.club')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='origins', to='tournament.player')),
            ],
            options={
                'verbose_name': "player's origin",
                'verbose_name_plural': "players' origins",
                'constraints': [models.UniqueConstraint(fields=('club', 'uid'), name='player_origin_unique')],
            },
        ),
    ]
