"""The social pages in Chromium: /friends/, /settings/privacy, a profile
with its follow, bell, mute and block buttons, and the lobby's friends
panel. axe finds no serious or critical violation, on a desktop and at
390 px, and no page scrolls sideways. The buttons work with htmx."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from accounts.models import User
from games import services as games
from live import presence
from people import services
from tests.browser.test_accessibility import SCREENS, context, serious_violations
from tests.browser.test_csp import people
from tests.live.servers import daphnes

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


def _world() -> tuple[User, User, User]:
    ada, grace, long = people("ada", "grace", "w" * 40)
    long.display_name = "Wolfeschlegelsteinhausenbergerdorff Jr."
    long.save(update_fields=["display_name"])
    services.do_follow(ada, grace)
    services.do_follow(grace, ada)
    services.do_set_bell(ada, long, on=True)
    games.create_seated_game(humans=[grace, long], bots=[], start=True)
    games.create_game(host=ada, max_seats=3)
    presence.person_connected(grace.pk)
    return ada, grace, long


def _check(page: Any, screen: str, where: str, found: dict[str, list[str]]) -> None:
    page.wait_for_load_state("networkidle")
    problems = serious_violations(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > SCREENS[screen]["width"]:
        problems.append(f"scrolls sideways: {width} px wide")
    if problems:
        found[f"{where} on {screen}"] = problems


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_social_pages_pass_axe_and_fit_the_screen(browser: Any, site: str, screen: str) -> None:
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        ada, grace, long = pool.submit(_world).result()
    found: dict[str, list[str]] = {}
    try:
        ctx = context(browser, site, ada, screen)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        for url in ("/friends/", "/settings/privacy", f"/u/{long.username}/", "/u/grace/"):
            page.goto(url)
            _check(page, screen, url, found)
        page.goto("/u/grace/")
        page.locator(".block-confirm summary").click()  # the block's explanation, open
        _check(page, screen, "a profile with the block open", found)
        page.goto("/lobby/")
        page.wait_for_selector("#friends-panel h2")  # the panel came in
        _check(page, screen, "/lobby/ with the friends panel", found)
        page.goto("/u/ada/")  # their own: the counts
        page.wait_for_selector(".follow-counts")
        _check(page, screen, "their own profile", found)
        ctx.close()
    finally:
        presence.person_disconnected(grace.pk)
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())


def test_follow_and_bell_buttons_swap_in_place(browser: Any, site: str) -> None:
    with ThreadPoolExecutor(1) as pool:
        _ada, grace, long = pool.submit(_world).result()
    presence.person_disconnected(grace.pk)
    ctx = context(browser, site, long, "desktop")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto("/u/ada/")
    page.get_by_role("button", name="Follow", exact=True).click()
    bell = page.get_by_role("button", name="Tell me when they start a game")
    bell.wait_for()
    assert bell.get_attribute("aria-pressed") == "false"
    bell.click()
    page.wait_for_selector('#relation-buttons button[aria-pressed="true"]')
    assert page.url.endswith("/u/ada/")  # swapped in place, no navigation
    with ThreadPoolExecutor(1) as pool:
        row = pool.submit(
            lambda: list(long.following_rows.values_list("followed__username", "bell"))
        ).result()
    assert row == [("ada", True)]
    ctx.close()
