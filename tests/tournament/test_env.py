"""Yes/no settings from the environment: the usual spellings work, a typo stops the start."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from tournament.settings import env_bool


@pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on", " On "])
def test_the_usual_yes_spellings_read_as_true(monkeypatch, value):
    monkeypatch.setenv("KREUZDAME_TEST_FLAG", value)
    assert env_bool("KREUZDAME_TEST_FLAG", False) is True


@pytest.mark.parametrize("value", ["0", "false", "FALSE", "no", "Off", " off "])
def test_the_usual_no_spellings_read_as_false(monkeypatch, value):
    monkeypatch.setenv("KREUZDAME_TEST_FLAG", value)
    assert env_bool("KREUZDAME_TEST_FLAG", True) is False


@pytest.mark.parametrize("default", [True, False])
def test_unset_or_empty_gives_the_default(monkeypatch, default):
    monkeypatch.delenv("KREUZDAME_TEST_FLAG", raising=False)
    assert env_bool("KREUZDAME_TEST_FLAG", default) is default
    for empty in ["", "  "]:
        monkeypatch.setenv("KREUZDAME_TEST_FLAG", empty)
        assert env_bool("KREUZDAME_TEST_FLAG", default) is default


@pytest.mark.parametrize("value", ["flase", "2", "y", "enabled", "-1"])
def test_a_value_neither_yes_nor_no_is_refused_with_name_and_value(monkeypatch, value):
    monkeypatch.setenv("KREUZDAME_TEST_FLAG", value)
    with pytest.raises(ImproperlyConfigured) as info:
        env_bool("KREUZDAME_TEST_FLAG", False)
    assert "KREUZDAME_TEST_FLAG" in str(info.value) and repr(value) in str(info.value)
