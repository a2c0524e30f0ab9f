"""The spectators' win bar in a real browser (issue #20): it fills in and
follows the moves a full round late on a spectator's page without a
reload, and a player's page never shows it nor receives it."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games import engine, estimates, services
from games.models import Game
from live import tasks
from tests.browser.test_live import SHOTS, context_for, daphne_url, people
from tests.live.conftest import move

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

__all__ = ["daphne_url"]

RECORD_FRAMES = """
window.__frames = [];
document.addEventListener("htmx:wsBeforeMessage", (e) => window.__frames.push(e.detail.message));
"""


def off_the_loop(call: Callable[..., Any], *args: Any) -> Any:
    """Playwright's loop runs in this thread: writes that push run elsewhere."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call, *args).result()


def a_round_on(game: Game) -> int:
    """Moves until every player still in has played a whole turn since the
    current one began: the bar's delay in a game with people seated.
    Returns the new version."""
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    last = state.turn_no + sum(1 for alive in state.alive if alive)
    while engine.from_dict(game.state).turn_no <= last:
        off_the_loop(move, game)
        game.refresh_from_db()
    return game.version


def shown_version(game: Game) -> int:
    shown = off_the_loop(estimates.shown, game)
    assert shown is not None
    return int(shown.version)


def estimate(game: Game) -> int:
    """What the worker does after a move: estimate the version, store it,
    push the spectators' bar. Returns the version. (When the session has a
    real worker, it may have done so already, from the task the spectator's
    arrival or the move queued: then this does nothing.)"""
    game.refresh_from_db()
    off_the_loop(tasks.estimate_position, game.pk, game.version)
    return game.version


@pytest.mark.browser
def test_a_spectators_bar_follows_the_moves_and_a_players_page_never_has_it(
    browser: Any, daphne_url: str, settings: Any
) -> None:
    settings.ANALYSIS_PLAYOUTS = 100
    SHOTS.mkdir(parents=True, exist_ok=True)
    *players, carol = people("ada", "grace", "alan", "edsger", "carol")
    game = off_the_loop(lambda: services.create_seated_game(humans=players, bots=[], start=True))
    for _ in range(9):  # a few turns in, so that the chances differ
        off_the_loop(move, game)
    mover = game.seats.get(number=engine.from_dict(game.state).turn).user

    watcher_ctx = context_for(browser, daphne_url, carol)
    player_ctx = context_for(browser, daphne_url, mover)
    player_ctx.add_init_script(RECORD_FRAMES)
    watcher, player = watcher_ctx.new_page(), player_ctx.new_page()
    for page in (watcher, player):
        page.set_default_timeout(15_000)
        page.goto(game.get_absolute_url())
        page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    watcher.evaluate("window.__notReloaded = true")

    # Estimated now, shown a full round later (people are seated): the
    # estimate stored then pushes the bar of the newest one a round old.
    estimated = estimate(game)
    watcher.wait_for_selector("#win-bar:not(:has(.win-segment))")
    off_the_loop(a_round_on, game)
    estimate(game)
    first = shown_version(game)
    assert first >= estimated
    watcher.wait_for_selector(f'#win-bar[data-version="{first}"] .win-segment')
    label = watcher.locator("#win-bar .win-track").get_attribute("aria-label")
    assert label is not None and label.startswith("Chances of winning: ada ")
    assert watcher.locator("#win-bar .win-legend li").count() == 4

    moved_to = off_the_loop(a_round_on, game)
    watcher.wait_for_selector(f'#board[data-version="{moved_to}"]')
    assert estimate(game) == moved_to
    second = shown_version(game)
    assert first < second < moved_to  # never current
    watcher.wait_for_selector(f'#win-bar[data-version="{second}"] .win-segment')
    assert watcher.evaluate("window.__notReloaded") is True
    total = watcher.evaluate(
        "[...document.querySelectorAll('#win-bar .win-segment')]"
        ".reduce((sum, el) => sum + el.getBoundingClientRect().width, 0)"
        " / document.querySelector('#win-bar .win-track').clientWidth"
    )
    assert total == pytest.approx(1, abs=0.02)  # the segments fill the track

    # The player's page had the move's pushes, and no bar ever.
    player.wait_for_selector(f'#board[data-version="{moved_to}"]')
    assert player.locator("#win-bar").count() == 0
    frames = player.evaluate("window.__frames")
    assert any(f.startswith(f"<!--push {moved_to}-->") for f in frames)
    assert not [f for f in frames if "win-bar" in f or "Chances of winning" in f]

    watcher.locator("#win-bar").scroll_into_view_if_needed()
    watcher.locator("#win-bar").screenshot(path=str(SHOTS / "win-bar.png"))
    watcher.screenshot(path=str(SHOTS / "win-bar-spectator.png"))
    watcher.goto("/watch/")
    watcher.wait_for_selector(".watch-chances .win-track.is-small")
    watcher.screenshot(path=str(SHOTS / "win-bar-watch.png"))
    player.goto("/watch/")
    assert player.locator(".watch-chances .win-track").count() == 0
    watcher_ctx.close()
    player_ctx.close()
