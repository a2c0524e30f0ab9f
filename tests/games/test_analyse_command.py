"""``manage.py analyse --calibrate``: the win estimate scored against bot
games (issue #20). Tiny runs: the shape and ranges, not the figures."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine import CalibrationPosition, calibration_score
from games.management.commands.analyse import targets

TINY = ("--calibrate", "--games", "3", "--every", "25", "--playouts", "12", "--turn-cap", "150")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    call_command("analyse", *args)
    return capsys.readouterr().out


def test_prints_one_json_object_with_scores_in_range(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(_run(capsys, *TINY, "--json"))
    assert out["games"] == 3 and out["playouts"] == 12
    assert out["positions"] >= 3  # at least the opening of each game
    assert 0 <= out["brier"] <= 2 and 0 < out["baseline_brier"] <= 1
    assert 0 <= out["log_loss"] <= -math.log(0.001)
    bands = out["reliability"]
    assert [b["band"] for b in bands] == [[i / 10, (i + 1) / 10] for i in range(10)]
    assert sum(b["count"] for b in bands) >= out["positions"] * 2
    for b in bands:
        if b["count"]:
            assert b["band"][0] <= b["mean_predicted"] <= b["band"][1]
            assert 0 <= b["observed"] <= 1
        else:
            assert b["mean_predicted"] is None and b["observed"] is None
    assert out["engine_build"] in ("compiled", "pure")
    assert isinstance(out["targets_met"], bool)
    assert out["max_band_gap"] is None or 0 <= out["max_band_gap"] <= 1


def test_the_same_seed_gives_the_same_scores(capsys: pytest.CaptureFixture[str]) -> None:
    first = json.loads(_run(capsys, *TINY, "--json"))
    again = json.loads(_run(capsys, *TINY, "--json"))
    for key in ("brier", "baseline_brier", "log_loss", "positions", "reliability"):
        assert first[key] == again[key]


def test_prints_a_readable_table_and_writes_the_svg(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "reliability.svg"
    text = _run(capsys, *TINY, "--svg", str(svg))
    assert "Brier score" in text and "baseline (1/n alive)" in text and "log loss" in text
    assert "predicted" in text and "observed" in text
    root = ElementTree.fromstring(svg.read_text())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.findall(".//{http://www.w3.org/2000/svg}circle")


@pytest.mark.parametrize("args", [("--games", "3"), ("--calibrate", "--games", "0")])
def test_refuses_nothing_to_do_or_no_games(args: tuple[str, ...]) -> None:
    with pytest.raises(CommandError):
        call_command("analyse", *args)


def test_the_targets_are_a_quarter_better_and_bands_within_five_points() -> None:
    bands = [
        {"band": [0.0, 0.1], "mean_predicted": 0.02, "observed": 0.2, "count": 49},
        {"band": [0.5, 0.6], "mean_predicted": 0.55, "observed": 0.51, "count": 50},
    ]
    assert targets({"improvement": 0.25, "reliability": bands}) == {
        "max_band_gap": 0.04,
        "targets_met": True,
    }
    assert not targets({"improvement": 0.24, "reliability": bands})["targets_met"]
    bands[1]["observed"] = 0.49
    assert not targets({"improvement": 0.4, "reliability": bands})["targets_met"]


def test_scores_a_sure_prediction_and_the_uniform_one() -> None:
    right = CalibrationPosition(0, "us-2003", 2, 0, (1.0, 0.0), (True, True), 0)
    even = CalibrationPosition(0, "us-2003", 2, 10, (0.5, 0.5), (True, True), 0)
    out = calibration_score([right, even])
    assert out["brier"] == pytest.approx((0 + 0.5) / 2)
    assert out["baseline_brier"] == pytest.approx(0.5)
    assert out["log_loss"] == pytest.approx(math.log(2) / 2, abs=1e-5)
    assert out["reliability"][9] == {
        "band": [0.9, 1.0],
        "mean_predicted": 1.0,
        "observed": 1.0,
        "count": 1,
    }
    assert out["reliability"][5]["count"] == 2  # both 0.5s


def test_worker_processes_give_the_same_scores_as_one(capsys: pytest.CaptureFixture[str]) -> None:
    tiny = ("--calibrate", "--games", "2", "--every", "40", "--playouts", "6", "--json")
    one = json.loads(_run(capsys, *tiny))
    two = json.loads(_run(capsys, *tiny, "--jobs", "2"))
    assert two["jobs"] == 2
    for key in ("brier", "baseline_brier", "log_loss", "positions", "reliability"):
        assert one[key] == two[key]


def test_reports_and_draws_a_saved_calibration_without_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "calibration.json"
    saved.write_text(_run(capsys, *TINY, "--json"))
    svg = tmp_path / "reliability.svg"
    again = json.loads(
        _run(capsys, "--calibrate", "--from-json", str(saved), "--json", "--svg", str(svg))
    )
    assert again == json.loads(saved.read_text())
    assert "(Brier 25% better, band gaps within 5%)" in _run(
        capsys, "--calibrate", "--from-json", str(saved)
    )
    assert f"{again['games']} bot games" in svg.read_text()
    saved.write_text("{}")
    with pytest.raises(CommandError, match="no calibration"):
        call_command("analyse", "--calibrate", "--from-json", str(saved))
