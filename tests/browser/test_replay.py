"""The replay viewer, the Finished tab and the home page's live boards in a
real browser."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.db import connection

from accounts.models import User
from games import services
from games.models import Game
from tests.browser.test_csp import Browsing, site  # noqa: F401  (site: a fixture)
from tests.browser.test_live import context_for

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"
PHONE = {"width": 390, "height": 844}


def bot_game(moves: int) -> Game:
    with mock.patch("games.scheduling.schedule_bots"):
        game = services.create_seated_game(humans=[], bots=["heuristic"] * 3, start=True)
        for _ in range(moves):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE or not services.play_bot_move(
                game.pk, game.version
            ):
                break
    game.refresh_from_db()
    return game


def bot_moves(game: Game, moves: int) -> None:
    """The bots make ``moves`` decisions (out of the test's thread: each is
    pushed, as a worker's would be)."""
    try:
        with mock.patch("games.scheduling.schedule_bots"):
            for _ in range(moves):
                game.refresh_from_db()
                assert services.play_bot_move(game.pk, game.version)
    finally:
        connection.close()


def at_step(page: Any, step: int, last: int) -> None:
    """Wait until the replay region shows ``step``."""
    page.wait_for_selector(f'#replay-region[data-step="{step}"]')
    assert page.locator("#replay-position").inner_text().startswith(f"Move {step} of {last}")


def fits(page: Any) -> None:
    """The page is no wider than the phone's viewport."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide"


@pytest.mark.slow  # in make test-long; make test keeps the instant key step
@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_replay_viewer_steps_through_a_game(page: Any) -> None:
    """Without a script's help too: the plain links and forms."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    game = bot_game(90)
    last = game.version - 1
    page.goto(f"/games/{game.public_id}/replay/")
    at_step(page, last, last)
    page.get_by_role("link", name="First").click()
    at_step(page, 0, last)
    page.get_by_role("link", name="Next").click()
    at_step(page, 1, last)
    page.get_by_role("link", name="Next").click()
    at_step(page, 2, last)
    page.get_by_label("Jump to turn").fill("3")
    page.get_by_role("button", name="Go", exact=True).click()  # not the GO square
    page.wait_for_selector("#replay-position:has-text('turn 3 of')")
    assert page.get_by_label("Jump to turn").input_value() == "3"
    assert page.locator("#board svg").is_visible()
    assert page.locator(".heat-map").is_visible()
    assert page.locator("svg.chart polyline").count() == 3
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)


@pytest.mark.slow  # in make test-long; make test keeps the instant key step below
@pytest.mark.browser
def test_the_keys_and_the_slider_reach_every_step_without_a_reload(
    browser: Any,
    site: str,  # noqa: F811
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    game = bot_game(8)  # each step is a request, four times over: a short game
    last = game.version - 1
    assert last >= 6
    url = f"/games/{game.public_id}/replay/"
    context = context_for(browser, site, None)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url + "?step=0")
    page.wait_for_selector("html.replay-js")
    page.evaluate("window.__notReloaded = true")
    page.locator("h1").click()  # the keys work where no box has the focus
    for step in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        at_step(page, step, last)
        assert page.url.endswith(f"?step={step}")  # each step can be linked
    page.keyboard.press("ArrowRight")  # at the end: stays
    page.keyboard.press("Home")
    at_step(page, 0, last)
    page.keyboard.press("End")
    at_step(page, last, last)
    for step in range(last - 1, -1, -1):
        page.keyboard.press("ArrowLeft")
        at_step(page, step, last)
    assert page.evaluate("window.__notReloaded") is True  # every key step swapped in place
    # The back button walks the steps back without a page load (from htmx's
    # history cache, or, when the cache misses, by fetching the step).
    page.go_back()
    at_step(page, 1, last)
    assert page.evaluate("window.__notReloaded") is True
    # The slider, driven by its own keys, reaches every step.
    page.locator("#replay-step").focus()
    for step in range(2, last + 1):
        page.keyboard.press("ArrowRight")
        at_step(page, step, last)
        assert page.locator("#replay-step").evaluate("el => el === document.activeElement")
    for step in range(last - 1, -1, -1):
        page.keyboard.press("ArrowLeft")
        at_step(page, step, last)
    assert page.evaluate("window.__notReloaded") is True
    # The jump box: turn N is turn N.
    page.evaluate("window.__notReloaded = true")
    page.get_by_label("Jump to turn").fill("2")
    page.get_by_role("button", name="Go", exact=True).click()
    page.wait_for_selector("#replay-position:has-text('turn 2 of')")
    assert page.get_by_label("Jump to turn").input_value() == "2"
    assert page.evaluate("window.__notReloaded") is True
    assert re.search(r"\?turn=2$", page.url)
    # At a phone's width nothing is wider than the screen.
    page.set_viewport_size(PHONE)
    fits(page)
    page.screenshot(path=str(SHOTS / "replay-phone.png"), full_page=True)
    context.close()


@pytest.mark.browser
def test_a_key_pressed_the_instant_a_step_lands_steps_in_place(
    browser: Any,
    site: str,  # noqa: F811
) -> None:
    """The moment after a swap, before htmx has wired up the new links, is
    where a held key used to follow a plain href and load the page."""
    game = bot_game(8)
    last = game.version - 1
    context = context_for(browser, site, None)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"/games/{game.public_id}/replay/?step=0")
    page.wait_for_selector("html.replay-js")
    page.evaluate(
        """() => {
        window.__notReloaded = true;
        document.addEventListener("htmx:afterSwap", () => setTimeout(() =>
          document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}))));
        }"""
    )
    page.locator("h1").click()
    page.keyboard.press("ArrowRight")
    at_step(page, last, last)
    assert page.evaluate("window.__notReloaded") is True
    assert page.url.endswith(f"?step={last}")
    context.close()


@pytest.mark.slow  # in make test-long; make test keeps the instant key step
@pytest.mark.browser
def test_the_replay_page_plays_without_a_console_error(
    browser: Any,
    site: str,  # noqa: F811
) -> None:
    game = bot_game(20)
    last = game.version - 1
    anonymous = Browsing(browser, site, None)
    page = anonymous.page()
    anonymous.visit(page, f"/games/{game.public_id}/replay/?step=0")
    page.select_option("#replay-speed", "250")
    page.get_by_role("button", name="Play").click()
    # Autoplay moves on by itself (a step is a quarter second: the wait
    # reads the region's step, not a selector a step might flash past).
    region = page.locator("#replay-region")
    deadline = time.monotonic() + 15
    while int(region.get_attribute("data-step") or 0) < 4:
        assert time.monotonic() < deadline, "autoplay did not move on"
        page.wait_for_timeout(50)
    page.get_by_role("button", name="Pause").click()
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "false"
    page.keyboard.press("End")
    page.wait_for_selector(f'#replay-region[data-step="{last}"]')
    page.wait_for_load_state("networkidle")
    anonymous.collect(page)
    assert anonymous.complaints == [] and anonymous.violations == []
    assert anonymous.other_errors == []


@pytest.mark.slow  # in make test-long; make test keeps the instant key step
@pytest.mark.browser
def test_the_finished_tab_and_the_home_page_fit_a_phone(
    browser: Any,
    site: str,  # noqa: F811
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ada = User.objects.create_user("ada", "ada@example.com", "pw-ada-12345")
    with mock.patch("games.scheduling.schedule_bots"):
        done = services.create_seated_game(humans=[ada], bots=["heuristic"], start=True)
        services.resign(public_id=done.public_id, user=ada, expected_version=done.version)
        bot_game(3)
    context = context_for(browser, site, None)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.set_viewport_size(PHONE)
    page.goto("/watch/finished/")
    assert page.get_by_role("link", name="Replay").count() == 1
    fits(page)
    page.screenshot(path=str(SHOTS / "watch-finished-phone.png"), full_page=True)
    page.goto("/")
    page.wait_for_selector('[data-live-board][data-live="on"]')
    fits(page)
    page.screenshot(path=str(SHOTS / "home-phone.png"), full_page=True)
    context.close()


@pytest.mark.slow  # in make test-long; make test keeps the instant key step
@pytest.mark.browser
def test_the_home_pages_board_moves_without_a_reload(
    browser: Any,
    site: str,  # noqa: F811
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    game = bot_game(2)
    version = game.version
    visitor = Browsing(browser, site, None)
    page = visitor.page()
    visitor.visit(page, "/")
    card = f'[data-live-board="/ws/games/{game.public_id}/"]'
    page.wait_for_selector(f'{card}[data-live="on"]')  # its socket is up
    page.evaluate("window.__notReloaded = true")
    before = page.locator(f"{card} .mini-live").inner_html()
    with ThreadPoolExecutor(1) as pool:  # the channel layer cannot be used from this thread
        pool.submit(bot_moves, game, 3).result()
    game.refresh_from_db()
    page.wait_for_selector(f'{card}[data-version="{game.version}"]')
    assert page.evaluate("window.__notReloaded") is True
    assert page.locator(f"{card} .mini-live").inner_html() != before
    assert game.version > version
    # The pushed board is cleaned as the page's: no id repeated across cards.
    assert page.locator(f"{card} .mini-live [id^='token-']").count() == 0
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(SHOTS / "home.png"), full_page=True)
    visitor.collect(page)
    assert visitor.complaints == [] and visitor.violations == []
    assert visitor.other_errors == []
