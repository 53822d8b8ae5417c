"""The command-line interfaces: gamevalue and checksheet."""

import io
import json
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from openpyxl import Workbook

EXAMPLE_2 = {
    "table_size": 4,
    "dealer": 1,
    "kind": "normal",
    "re": [2, 4],
    "re_eyes": 151,
    "re_no_trick": False,
    "kontra_no_trick": False,
    "announced": ["re"],
    "absage": {"re": None, "kontra": None},
    "sonderpunkte": {"re": 0, "kontra": 1},
}


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return json.loads(out.getvalue())


def test_gamevalue_prints_winner_value_and_points():
    result = run("gamevalue", "--profile", "ddv", "--facts", json.dumps(EXAMPLE_2))
    assert result == {"winner": "re", "value": 3, "points": {"1": -3, "2": 3, "3": -3, "4": 3}}


def test_gamevalue_reads_a_facts_file_and_knows_five_tables(tmp_path):
    path = tmp_path / "facts.json"
    path.write_text(
        json.dumps({"table_size": 5, "dealer": 1, "kind": "solo", "re": [2], "re_eyes": 121})
    )
    result = run("gamevalue", "--profile", "ddv", "--facts-file", str(path))
    assert result["points"] == {"1": 0, "2": 3, "3": -1, "4": -1, "5": -1}


def test_gamevalue_plus_points_profile():
    result = run("gamevalue", "--profile", "eppstein-2001", "--facts", json.dumps(EXAMPLE_2))
    # Re wins: (1 + under 90) doubled by "Re" = 4; Kontra's Fuchs gives Kontra 1 each.
    assert result["points"] == {"1": 1, "2": 4, "3": 1, "4": 4}


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({**EXAMPLE_2, "re_eyes": 300}, "zwischen 0 und 240"),
        ({**EXAMPLE_2, "re_eyes": 239}, "Re kann nicht 239 Augen haben"),
        ({**EXAMPLE_2, "kind": "solo"}, "Re-Spieler"),
        ({**EXAMPLE_2, "kind": "solo", "re": [2], "sonderpunkte": {"re": 1}}, "keine Sonderpunkte"),
        ({**EXAMPLE_2, "table_size": 5, "dealer": 7}, "Position 7 gibt es"),
    ],
)
def test_gamevalue_refuses_invalid_facts_with_exit_code_2(facts, message):
    with pytest.raises(CommandError, match=message) as info:
        call_command("gamevalue", "--profile", "ddv", "--facts", json.dumps(facts))
    assert info.value.returncode == 2


def manage(*args):
    return subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_gamevalue_exit_code_and_message_without_traceback():
    result = manage("gamevalue", "--profile", "ddv", "--facts", "{not json")
    assert result.returncode == 2
    assert "kein gültiges JSON" in result.stderr and "Traceback" not in result.stderr


SHEET = [
    ["game", "kind", "soloist", "1", "2", "3", "4"],
    ["1", "P", "1", "3", "-1", "-1", "-1"],
    ["2", "N", "", "1", "-1", "1", "-1"],
    ["2", "S", "", "1", "-3", "1", "1"],
    ["3", "N", "", "2", "0", "0", "-2"],
]


def write_csv(path, rows, delimiter=";"):
    path.write_text("\n".join(delimiter.join(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_checksheet_reports_findings_and_totals(tmp_path):
    path = write_csv(tmp_path / "liste.csv", SHEET)
    with pytest.raises(SystemExit) as exit_info:
        run("checksheet", str(path))
    assert exit_info.value.code == 1
    result = manage("checksheet", str(path))
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    pattern = {
        "game": 3,
        "level": "error",
        "code": "pattern",
        "message": "Diese Werte passen zu keinem Normalspiel: zwei Spieler bekommen +v, zwei −v "
        "(z. B. +2, +2, −2, −2).",
    }
    assert pattern in report["findings"]
    assert report["totals"] == {"1": 7, "2": -5, "3": 1, "4": -3}


def test_checksheet_cumulative_gives_the_same_findings(tmp_path):
    running, totals = [SHEET[0]], [0, 0, 0, 0]
    for row in SHEET[1:]:
        totals = [t + int(v) for t, v in zip(totals, row[3:], strict=True)]
        running.append(row[:3] + [str(t) for t in totals])
    per_game = json.loads(manage("checksheet", str(write_csv(tmp_path / "a.csv", SHEET))).stdout)
    cumulative = json.loads(
        manage(
            "checksheet", "--cumulative", str(write_csv(tmp_path / "b.csv", running, ","))
        ).stdout
    )
    assert cumulative == per_game


def test_checksheet_reads_xlsx_and_a_clean_sheet_exits_0(tmp_path):
    workbook = Workbook()
    workbook.active.append(["game", "kind", "soloist", "1", "2", "3", "4"])
    for number in range(1, 17):
        if number <= 4:
            row = [-1, -1, -1, -1]
            row[number - 1] = 3
            workbook.active.append([number, "P", number, *row])
        else:
            workbook.active.append([number, "N", None, 1, -1, 1, -1])
    path = tmp_path / "liste.xlsx"
    workbook.save(path)
    result = manage("checksheet", "--profile", "bsv-hessen-2010", str(path))
    report = json.loads(result.stdout)
    assert [f["code"] for f in report["findings"]] == ["too-few-games"]
    assert result.returncode == 0 and report["ok"] is True


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("game;kind;soloist;1;2;3\n", "erste Zeile muss lauten"),
        ("game;kind;soloist;1;2;3;4\n1;X;;1;-1;1;-1\n", "Unbekannte Art „X“"),
        ("game;kind;soloist;1;2;3;4\n1;N;;1;-1;eins;-1\n", "keine ganze Zahl"),
        ("", "Die Datei ist leer"),
    ],
)
def test_checksheet_unreadable_file_exits_2_with_a_message(tmp_path, content, message):
    path = tmp_path / "liste.csv"
    path.write_text(content, encoding="utf-8")
    result = manage("checksheet", str(path))
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_checksheet_missing_file_and_unknown_profile_exit_2(tmp_path):
    assert manage("checksheet", str(tmp_path / "nope.csv")).returncode == 2
    path = write_csv(tmp_path / "a.csv", SHEET)
    result = manage("checksheet", "--profile", "skat", str(path))
    assert result.returncode == 2 and "Unbekanntes Regelwerk" in result.stderr


def test_tableplan_prints_a_valid_plan_with_its_quality():
    result = run("tableplan", "--players", "16", "--rounds", "5", "--seed", "3")
    assert result["players"] == 16 and len(result["rounds"]) == 5
    for tables in result["rounds"]:
        assert sorted(p for table in tables for p in table) == list(range(1, 17))
        assert [len(t) for t in tables] == [4, 4, 4, 4]
    assert result["stats"]["repeat_pairs"] == 0 and result["stats"]["lower_bound"] == 0
    assert result["stats"]["five_table_spread"] == 0 and result["stats"]["method"] == "construction"
    assert result["stats"]["without_fair_five_tables"] is None


def test_tableplan_prints_the_same_bytes_alone_and_eight_times_in_parallel():
    """The README promises that a logged seed reproduces the draw on any laptop: the plan
    depends on the arguments only, not on the machine's speed or load (issue 17). 18
    players in 5 rounds: the search spends its whole budget, so a time-based budget would
    show here."""
    args = [sys.executable, "manage.py", "tableplan", "--players", "18", "--rounds", "5",
            "--seed", "4", "--time-limit", "0.3"]  # fmt: skip
    alone = subprocess.run(args, cwd=settings.BASE_DIR, capture_output=True, timeout=120)  # noqa: S603
    assert alone.returncode == 0, alone.stderr
    busy = [
        subprocess.Popen(  # noqa: S603
            args, cwd=settings.BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(8)
    ]
    outputs = [process.communicate(timeout=300)[0] for process in busy]
    assert all(process.returncode == 0 for process in busy)
    assert outputs == [alone.stdout] * 8
    stats = json.loads(alone.stdout)["stats"]
    assert stats["repeat_pairs"] > 0 and stats["five_table_spread"] <= 1


def test_tableplan_mixed_field_and_reproducible_seed():
    first = run("tableplan", "--players", "13", "--rounds", "3", "--seed", "9")
    second = run("tableplan", "--players", "13", "--rounds", "3", "--seed", "9")
    assert first["rounds"] == second["rounds"]
    assert sorted(len(t) for t in first["rounds"][0]) == [4, 4, 5]


def test_tableplan_impossible_field_exits_2_and_says_what_to_do():
    result = manage("tableplan", "--players", "7", "--rounds", "3")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "7 Spieler" in result.stderr and "1 Spieler mehr oder 2 weniger" in result.stderr
