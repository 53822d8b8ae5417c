"""Upgrading with background work still queued: the tasks moved to tournament/tasks/ (issue 36),
and a mail or document the older version queued must still be found by the worker."""

import pytest
from django.utils import timezone
from django.utils.module_loading import import_string

from tests.migrations import migrate_to, migrated_back

TASKS = ("django_tasks_database", "0021_conditional_partial_index_ordering")


@pytest.mark.django_db(transaction=True)
def test_tasks_queued_under_the_old_module_paths_point_at_the_moved_functions():
    old_paths = {
        "tournament.mail.send_seats": "tournament.tasks.mail.send_seats",
        "tournament.documents.render_document": "tournament.tasks.documents.render_document",
        "tournament.tasks.mail.send_seats": "tournament.tasks.mail.send_seats",
    }
    with migrated_back([("tournament", "0037_player_name_key"), TASKS]) as apps:
        results = apps.get_model("django_tasks_database", "DBTaskResult").objects
        ids = {
            results.create(
                task_path=path,
                queue_name="mail",
                backend_name="default",
                args_kwargs={},
                run_after=timezone.now(),
                exception_class_path="",
                traceback="",
            ).pk: path
            for path in old_paths
        }
        apps = migrate_to([("tournament", "0038_moved_task_paths"), TASKS])
        moved = dict(
            apps.get_model("django_tasks_database", "DBTaskResult")
            .objects.filter(pk__in=ids)
            .values_list("pk", "task_path")
        )
        assert {ids[pk]: path for pk, path in moved.items()} == old_paths
        for path in set(old_paths.values()):
            import_string(path)  # the worker imports the function by this path
        apps = migrate_to([("tournament", "0037_player_name_key"), TASKS])
        back = dict(
            apps.get_model("django_tasks_database", "DBTaskResult")
            .objects.filter(pk__in=ids)
            .values_list("pk", "task_path")
        )
        assert back[next(pk for pk, p in ids.items() if p == "tournament.mail.send_seats")] == (
            "tournament.mail.send_seats"
        )
        results.filter(pk__in=ids).delete()
