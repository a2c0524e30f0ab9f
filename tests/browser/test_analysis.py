"""A finished game's analysis on its replay, in a real browser: the chance of
winning beside the net worth, and the turning points that step the replay."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.db import connection

from accounts.models import User
from games import analysis, services
from games.models import Game, GameAnalysis
from tests.browser.test_accessibility import serious_violations
from tests.games.test_fair_dice import play

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"
PHONE = {"width": 390, "height": 844}


def finished_three_player_game() -> Game:
    """Three people play 60 moves (each as the site's bot would), then two resign."""
    try:
        ada, bob, cy = (
            User.objects.create_user(n, f"{n}@example.com", f"pw-{n}-12345")
            for n in ("ada", "bob", "cy")
        )
        with mock.patch("games.scheduling.queue_analysis"):
            game = services.create_seated_game(humans=[ada, bob, cy], bots=[], start=True)
            play(game, 60)
            for loser in (ada, bob):
                game.refresh_from_db()
                services.resign(public_id=game.public_id, user=loser, expected_version=game.version)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        return game
    finally:
        connection.close()


def analysed(game_pk: int) -> bool:
    try:
        return analysis.analyse_game(game_pk)
    finally:
        connection.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_replay_draws_the_chances_and_steps_to_a_turning_point(page: Any, settings: Any) -> None:
    settings.POSTGAME_PLAYOUTS = 40
    settings.POSTGAME_MAX_POSITIONS = 40
    settings.POSTGAME_REFINE_POSITIONS = 8
    settings.POSTGAME_TARGET_STDERR = 0.04
    SHOTS.mkdir(parents=True, exist_ok=True)
    # Out of this thread: Playwright runs an event loop here, and the
    # services push each move as they would from a worker.
    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(finished_three_player_game).result()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/games/{game.public_id}/replay/")
    page.get_by_text("Analysing…").wait_for()
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(analysed, game.pk).result()
    turning = GameAnalysis.objects.get(game=game).turning_points
    assert turning
    page.reload()
    chart = page.get_by_role("group", name="Chance of winning by move")
    chart.wait_for()
    assert chart.locator("polyline").count() == 3
    assert chart.locator("a.chart-marker").count() == len(turning)
    items = page.locator(".turning-list li")
    assert items.count() == len(turning)
    assert items.first.inner_text().strip() == turning[0]["text"]
    # Beside the net worth: the two charts share a row.
    worth = page.locator("svg.chart").first.bounding_box()
    win = chart.bounding_box()
    assert abs(worth["y"] - win["y"]) < 60 and win["x"] > worth["x"] + 200
    page.screenshot(path=str(SHOTS / "replay-analysis.png"), full_page=True)
    assert serious_violations(page) == []
    # A turning point steps the replay to its move (from the first step: the
    # last is often one, a resignation).
    page.get_by_role("link", name="First").click()
    page.wait_for_selector('#replay-region[data-step="0"]')
    items.first.get_by_role("link").click()
    page.wait_for_selector(f'#replay-region[data-step="{turning[0]["step"]}"]')
    assert page.url.endswith(f"?step={turning[0]['step']}")
    # The ring on the chart is a link to the same step.
    marker = chart.locator("a.chart-marker").first
    assert marker.get_attribute("href").endswith(f"?step={turning[0]['step']}")
    page.locator("summary", has_text="The chances as a table").click()
    assert page.locator(".win-table tbody tr").count() == len(
        GameAnalysis.objects.get(game=game).points
    )
    # On a phone the charts stack, and nothing is wider than the screen.
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    chart.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "replay-analysis-phone.png"))
