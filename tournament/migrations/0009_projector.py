"""The projector view: seconds per page and the secret link of each tournament.

Existing tournaments need distinct tokens: a callable default on AddField is evaluated once
for the whole table, so the field comes in nullable, each row gets its own token, and only
then does it become unique and required.
"""

import secrets

import django.core.validators
from django.db import migrations, models

import tournament.models.tournament


def fill_tokens(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    for row in Tournament.objects.filter(projector_token__isnull=True).only("pk"):
        row.projector_token = secrets.token_urlsafe(18)
        row.save(update_fields=["projector_token"])


SECONDS = models.PositiveSmallIntegerField(
    default=12,
    help_text=(
        "The projector view shows the clock, the seating, the tables and the standings in "
        "turn; each page stays this many seconds (5 to 120)."
    ),
    validators=[
        django.core.validators.MinValueValidator(5),
        django.core.validators.MaxValueValidator(120),
    ],
    verbose_name="projector: seconds per page",
)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0008_history_roles"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicaltournament", name="projector_seconds", field=SECONDS
        ),
        migrations.AddField(model_name="tournament", name="projector_seconds", field=SECONDS),
        migrations.AddField(
            model_name="tournament",
            name="projector_token",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="tournament",
            name="projector_token",
            field=models.CharField(
                default=tournament.models.tournament.new_projector_token,
                editable=False,
                max_length=32,
                unique=True,
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("projector_seconds__gte", 5), ("projector_seconds__lte", 120)),
                name="tournament_projector_seconds_range",
            ),
        ),
    ]
