"""The replay viewer in a real browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from games import services
from games.models import Game

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_replay_viewer_steps_through_a_game(page: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with mock.patch("games.scheduling.schedule_bots"):
        game = services.create_seated_game(humans=[], bots=["heuristic"] * 3, start=True)
        for _ in range(90):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE or not services.play_bot_move(
                game.pk, game.version
            ):
                break
    game.refresh_from_db()
    last = game.version - 1
    page.goto(f"/games/{game.public_id}/replay/")
    assert page.get_by_text(f"Move {last} of {last}").is_visible()
    page.get_by_role("link", name="First").click()
    assert page.get_by_text(f"Move 0 of {last}").is_visible()
    page.get_by_role("link", name="Next").click()
    page.get_by_role("link", name="Next").click()
    assert page.get_by_text(f"Move 2 of {last}").is_visible()
    page.get_by_label("Jump to turn").fill("3")
    page.get_by_role("button", name="Go", exact=True).click()  # not the GO square
    assert page.get_by_text("turn 4").first.is_visible()
    assert page.locator("#board svg").is_visible()
    assert page.locator(".heat-map").is_visible()
    assert page.locator("svg.chart polyline").count() == 3
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)
