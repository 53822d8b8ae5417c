from django.db import migrations, models


class Migration(migrations.Migration):
    """The publication consent (README, "Datenschutz / privacy"). Rows that exist keep being
    published as before (default True while the column is added): a director's entries were
    collected at the desk under the tournament's notice, and an online registration ticked a
    consent line that named the publication of name, club and results. New rows start
    without consent (default False)."""

    dependencies = [
        ("tournament", "0029_registration_limits"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="publish",
            field=models.BooleanField(default=True, verbose_name="name published"),
        ),
        migrations.AlterField(
            model_name="entry",
            name="publish",
            field=models.BooleanField(default=False, verbose_name="name published"),
        ),
        migrations.AddField(
            model_name="historicalentry",
            name="publish",
            field=models.BooleanField(default=True, verbose_name="name published"),
        ),
        migrations.AlterField(
            model_name="historicalentry",
            name="publish",
            field=models.BooleanField(default=False, verbose_name="name published"),
        ),
        migrations.AddField(
            model_name="registration",
            name="publish",
            field=models.BooleanField(default=True, verbose_name="name published"),
        ),
        migrations.AlterField(
            model_name="registration",
            name="publish",
            field=models.BooleanField(default=False, verbose_name="name published"),
        ),
        migrations.AddField(
            model_name="historicalregistration",
            name="publish",
            field=models.BooleanField(default=True, verbose_name="name published"),
        ),
        migrations.AlterField(
            model_name="historicalregistration",
            name="publish",
            field=models.BooleanField(default=False, verbose_name="name published"),
        ),
    ]
