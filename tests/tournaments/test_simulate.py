"""``manage.py simulate_tournament``: one JSON object about a whole event."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command

KEYS = {
    "players",
    "rounds",
    "tables",
    "repeat_meetings",
    "repeat_lower_bound",
    "byes_max_per_player",
    "seating_seconds_max",
    "winner",
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    call_command("simulate_tournament", *args, "--json")
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_swiss_plays_engine_games_and_reports_the_agreed_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(
        capsys,
        *("--format", "swiss", "--players", "10", "--table-size", "4"),
        *("--rounds", "3", "--seed", "7", "--turn-limit", "60"),
    )
    assert set(out) >= KEYS
    assert out["results"] == "engine"
    assert out["players"] == 10 and out["rounds"] == 3
    # 10 players at tables of 3 to 5: everyone seated every round.
    assert out["byes_max_per_player"] == 0
    assert out["tables"] == 3 * 3  # 4 + 3 + 3
    assert out["repeat_meetings"] >= out["repeat_lower_bound"] >= 0
    assert 1 <= out["winner"] <= 10
    assert 0 <= out["seating_seconds_max"] < 1


def test_the_same_seed_gives_the_same_event(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--format", "swiss", "--players", "9", "--table-size", "3", "--rounds", "3")
    a = run(capsys, *args, "--seed", "3", "--turn-limit", "40")
    b = run(capsys, *args, "--seed", "3", "--turn-limit", "40")
    for key in ("winner", "repeat_meetings", "tables"):
        assert a[key] == b[key]


def test_elimination_ends_at_a_final_table(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(
        capsys,
        *("--format", "elimination", "--players", "16", "--table-size", "4"),
        *("--table-min", "4", "--table-max", "4", "--seed", "2", "--quick"),
    )
    # 16 -> 4 tables, 8 go through -> 2 tables, 4 go through -> the final.
    assert out["rounds"] == 3 and out["tables"] == 4 + 2 + 1
    assert out["results"] == "drawn"
    # The final's two pairs from each semi-final have met: forced.
    assert out["repeat_meetings"] >= out["repeat_lower_bound"] >= 2


def test_roundrobin_with_odd_numbers_spreads_byes(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(
        capsys,
        *("--format", "roundrobin", "--players", "7", "--table-size", "2"),
        *("--table-min", "2", "--table-max", "2", "--rounds", "7", "--seed", "1", "--quick"),
    )
    assert out["byes_max_per_player"] == 1
    assert out["repeat_meetings"] == 0 == out["repeat_lower_bound"]


def test_a_perfect_roundrobin_group_meets_nobody_twice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(
        capsys,
        *("--format", "roundrobin", "--players", "16", "--table-size", "4"),
        *("--table-min", "4", "--table-max", "4", "--rounds", "5", "--seed", "1"),
        "--turn-limit",
        "40",
    )
    assert out["repeat_meetings"] == 0 and out["tables"] == 20
