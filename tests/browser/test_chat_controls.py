"""A chat line's mute, block and report controls, first rendered and pushed,
and the lobby's "join anyway" beside someone you blocked: axe finds no
serious or critical violation, on a desktop and at 390 px, and nothing
scrolls sideways."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games import services
from live.chat import do_post_message
from live.models import ChatMessage
from people import services as people_services
from tests.browser.test_accessibility import SCREENS, context, serious_violations
from tests.browser.test_csp import people
from tests.live.servers import daphnes

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


def sideways(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_chat_controls_and_the_join_confirmation_pass_axe(
    browser: Any, site: str, screen: str
) -> None:
    ada, grace = people("ada", "grace")
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        game = pool.submit(
            services.create_seated_game, humans=[ada, grace], bots=[], start=True
        ).result()
        lobby = pool.submit(services.create_game, host=grace).result()
        seat = game.seats.get(user=grace)
        pool.submit(
            ChatMessage.objects.create, game=game, room="players", author=grace, body="hello ada"
        ).result()
    width = SCREENS[screen]["width"]
    found: dict[str, list[str]] = {}
    ctx = context(browser, site, ada, screen)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    page.locator(".chat-actions summary").first.click()
    page.wait_for_selector(".chat-actions[open] .chat-report select")
    if violations := serious_violations(page):
        found["a line's controls, open"] = violations
    assert sideways(page) <= width
    # A line pushed over the socket carries them too.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(
            do_post_message, game=game, seat=seat, user=grace, room="players", body="gg"
        ).result()
    page.wait_for_selector(".chat-message:has-text('gg') .chat-actions")
    if violations := serious_violations(page):
        found["a pushed line's controls"] = violations
    assert sideways(page) <= width
    # The lobby of a game where someone ada blocked sits.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(people_services.do_block, ada, grace).result()
    page.goto(lobby.get_absolute_url())
    page.wait_for_selector("#join-confirm-blocked")
    if violations := serious_violations(page):
        found["the lobby's join anyway"] = violations
    assert sideways(page) <= width
    ctx.close()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
