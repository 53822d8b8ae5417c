"""``manage.py publisher`` as the hall runs it beside the site: passes until the hall stops it,
and stops by itself when the hall is gone."""

import sys

import pytest
from django.core.management import call_command

from tournament.management.commands import publisher as publisher_command
from tournament.ops.hall import publisher_command as hall_command_line

pytestmark = pytest.mark.django_db


def test_the_hall_starts_the_publisher_supervised_with_its_own_python():
    line = hall_command_line("/srv/kreuzdame/manage.py")
    assert line[:3] == [sys.executable, "/srv/kreuzdame/manage.py", "publisher"]
    assert "--supervised" in line


def test_a_supervised_publisher_publishes_and_stops_when_the_hall_is_gone(
    hall, published, monkeypatch
):
    module = publisher_command.__name__
    parents = iter([4242, 4242, 4242, 1])  # at the start, two passes, then orphaned
    monkeypatch.setattr(f"{module}.os.getppid", lambda: next(parents))
    monkeypatch.setattr(f"{module}.os.nice", lambda increment: None)  # not the test's process
    monkeypatch.setattr(f"{module}.signal.signal", lambda *args: None)
    monkeypatch.setattr(f"{module}.time.sleep", lambda seconds: None)
    monkeypatch.setattr(f"{module}.close_old_connections", lambda: None)

    call_command("publisher", supervised=True)  # returns: not an endless loop

    assert next(parents, None) is None
    assert [sequence for _uid, sequence, _body in hall.accepted] == [1]
