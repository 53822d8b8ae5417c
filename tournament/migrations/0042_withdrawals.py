"""Taking a tournament off the results service: when publishing is switched off or the
tournament made private (Publication.withdrawn_at), and when it is deleted (Withdrawal)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0041_publishing'),
    ]

    operations = [
        migrations.CreateModel(
            name='Withdrawal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('uid', models.UUIDField(unique=True)),
                ('name', models.CharField(blank=True, max_length=200)),
                ('sequence', models.PositiveBigIntegerField()),
                ('created_at', models.DateTimeField()),
                ('body', models.BinaryField()),
                ('last_error', models.CharField(blank=True, max_length=40)),
                ('last_error_detail', models.CharField(blank=True, max_length=300)),
                ('attempts', models.PositiveIntegerField(default=0)),
                ('next_try_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'verbose_name': 'withdrawal from the results service',
                'verbose_name_plural': 'withdrawals from the results service',
            },
        ),
        migrations.AddField(
            model_name='publication',
            name='withdrawn_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
