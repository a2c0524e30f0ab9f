"""``manage.py simulate``: the interface other work relies on (issue 3)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from games import native


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    call_command("simulate", *args)
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_prints_one_json_object_with_the_agreed_fields(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(
        capsys,
        *("--games", "3", "--players", "4", "--seed", "5", "--ruleset", "us-2003"),
        *("--bot", "heuristic", "--jail-policy", "pay", "--max-turns", "200", "--json"),
    )
    assert out["games"] == 3
    turns = out["player_turns"]
    assert isinstance(turns, int) and 0 < turns <= 3 * 200
    assert out["player_turns_per_second"] and out["seconds"]
    assert out["invariant_violations"] is None  # speed figures are taken without checks
    ended = out["ended_by"]
    assert isinstance(ended, dict) and sum(ended.values()) == 3
    positions = out["end_of_turn_positions"]
    assert isinstance(positions, dict)
    assert set(positions) == {str(i) for i in range(40)} | {"jail"}
    assert sum(positions.values()) == turns
    assert out["engine_build"] == ("compiled" if native.status() == "compiled" else "pure")


def test_checks_invariants_and_counts_turn_limits(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(
        capsys,
        *("--games", "2", "--players", "3", "--ruleset", "uk", "--bot", "random"),
        *("--jail-policy", "stay", "--max-turns", "5", "--check-invariants"),
    )
    assert out["invariant_violations"] == 0
    assert out["ended_by"] == {"turn_limit": 2}
    assert out["player_turns"] == 10
