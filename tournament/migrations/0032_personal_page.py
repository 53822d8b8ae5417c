import secrets

import django.db.models.deletion
from django.db import migrations, models

import tournament.models.tournament


def give_tokens(apps, schema_editor):
    """Every entry made before gets its personal page (the QR code of its player card)."""
    Entry = apps.get_model("tournament", "Entry")
    for entry in Entry.objects.filter(token__isnull=True).only("pk").iterator():
        Entry.objects.filter(pk=entry.pk).update(token=secrets.token_urlsafe(24))


class Migration(migrations.Migration):
    """The players' page for the whole day (issue 35): a personal token on every entry, also
    those entered at the desk, and the seats mailed when a round is released."""

    dependencies = [
        ("tournament", "0031_unverify_online_players"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="token",
            field=models.CharField(editable=False, max_length=40, null=True),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="entry",
            name="token",
            field=models.CharField(
                default=tournament.models.tournament.new_personal_token,
                editable=False,
                max_length=40,
                null=True,
                unique=True,
            ),
        ),
        migrations.CreateModel(
            name="SeatMail",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("table_number", models.PositiveSmallIntegerField(verbose_name="table")),
                ("position", models.PositiveSmallIntegerField(verbose_name="position")),
                ("sent_at", models.DateTimeField(auto_now=True, verbose_name="sent")),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seat_mails",
                        to="tournament.entry",
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seat_mails",
                        to="tournament.round",
                    ),
                ),
            ],
            options={
                "verbose_name": "seat mail",
                "verbose_name_plural": "seat mails",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("round", "entry"), name="seat_mail_one_per_round"
                    )
                ],
            },
        ),
    ]
