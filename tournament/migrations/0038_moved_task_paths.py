"""The background tasks moved with their modules (issue 36): tournament/documents.py and
tournament/mail.py are now tournament/tasks/. A task queued by the older version and not run
yet names its function by the old dotted path, which would no longer import: its row is
pointed at the new path (and back on a rollback)."""

from django.db import migrations

MOVES = (
    ("tournament.documents.", "tournament.tasks.documents."),
    ("tournament.mail.", "tournament.tasks.mail."),
)


def _rename(apps, pairs):
    result = apps.get_model("django_tasks_database", "DBTaskResult")
    for old, new in pairs:
        for row in result.objects.filter(task_path__startswith=old).only("pk", "task_path"):
            row.task_path = new + row.task_path[len(old) :]
            row.save(update_fields=["task_path"])


def forwards(apps, schema_editor):
    _rename(apps, MOVES)


def backwards(apps, schema_editor):
    _rename(apps, [(new, old) for old, new in MOVES])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0037_player_name_key"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
