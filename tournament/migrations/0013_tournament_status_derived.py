"""A tournament's status is no longer stored: it follows from its rounds (planned until a
round is drawn, finished once the planned rounds are closed, running between; see
``Tournament.status``). The stored field stayed "planned" while rounds were played."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0012_penalty_number_per_tournament"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="tournament",
            name="tournament_status_valid",
        ),
        migrations.RemoveField(
            model_name="historicaltournament",
            name="status",
        ),
        migrations.RemoveField(
            model_name="tournament",
            name="status",
        ),
    ]
