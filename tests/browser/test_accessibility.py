"""axe-core finds no serious or critical violation on the site's main pages,
for a player, a spectator and a visitor, on a desktop and on a phone (issue
#18). A game page is checked again after a turn came over the socket, so
that pushed regions are checked as well as the first render."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings

from accounts.models import User
from games import engine, services
from games.models import Game
from tests.browser.test_csp import people
from tests.live.servers import daphnes, session_cookie
from tests.notifications.test_live_notices import play_turns

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

SERIOUS = ("serious", "critical")
SCREENS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


def context(browser: Any, base_url: str, user: User | None, screen: str) -> Any:
    # axe runs as an injected script, which the site's policy (no eval) refuses.
    ctx = browser.new_context(base_url=base_url, viewport=SCREENS[screen], bypass_csp=True)
    if user is not None:
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user)}
        ctx.add_cookies([{**cookie, "url": base_url}])
    return ctx


def serious_violations(page: Any) -> list[str]:
    results = Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] in SERIOUS:
            targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:3]]
            out.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
    return out


@pytest.mark.browser
# The phone's run is in `make test-long` (CI runs both), to keep `make test` under ten minutes.
@pytest.mark.parametrize("screen", ["desktop", pytest.param("phone", marks=pytest.mark.slow)])
def test_axe_finds_no_serious_violation(browser: Any, site: str, screen: str) -> None:
    ada, grace, carol = people("ada", "grace", "carol")
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        game = pool.submit(
            services.create_seated_game, humans=[ada, grace], bots=[], start=True
        ).result()
        finished = pool.submit(
            services.create_seated_game, humans=[ada, grace], bots=[], start=True
        ).result()
        pool.submit(play_turns, finished, 2, notify=False).result()
        finished.refresh_from_db()
        pool.submit(
            services.resign,
            public_id=finished.public_id, user=ada, expected_version=finished.version,
        ).result()  # fmt: skip
    state = engine.from_dict(Game.objects.get(pk=game.pk).state)
    mover = game.seats.get(number=engine.next_actor(state)).user
    found: dict[str, list[str]] = {}
    visits: list[tuple[User | None, list[str]]] = [
        (None, ["/", "/accounts/login/", "/accounts/signup/", "/watch/", "/leaderboard/"]),
        (mover, ["/lobby/", game.get_absolute_url(), f"/games/{finished.public_id}/replay/"]),
        (carol, [game.get_absolute_url(), finished.get_absolute_url()]),
    ]
    for user, urls in visits:
        ctx = context(browser, site, user, screen)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        for url in urls:
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if violations := serious_violations(page):
                found[f"{url} as {user or 'visitor'}"] = violations
        ctx.close()
    # The regions as pushed: the spectator watches a turn being played.
    ctx = context(browser, site, carol, screen)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    with ThreadPoolExecutor(1) as pool:
        pool.submit(play_turns, game, 1, notify=False).result()
    game.refresh_from_db()
    page.wait_for_selector(f'#board[data-version="{game.version}"]')
    if violations := serious_violations(page):
        found["the game page after pushes"] = violations
    ctx.close()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())


def tab_to(page: Any, pattern: str, limit: int = 80) -> str:
    """Press Tab until a button whose label matches ``pattern`` has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        label = page.evaluate(
            "document.activeElement && document.activeElement.tagName === 'BUTTON'"
            " ? document.activeElement.textContent.trim() : ''"
        )
        if re.match(pattern, label):
            return str(label)
    raise AssertionError(f"no button matching {pattern!r} within {limit} Tabs")


@pytest.mark.browser
def test_a_turn_is_played_with_the_keyboard_alone(browser: Any, site: str) -> None:
    ada, grace = people("ada", "grace")
    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(
            services.create_seated_game, humans=[ada, grace], bots=[], start=True
        ).result()
    mover_number = engine.next_actor(engine.from_dict(game.state))
    mover = game.seats.get(number=mover_number).user
    ctx = context(browser, site, mover, "desktop")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    # Roll, then whatever the landing asks (buy, pay...), then end the turn.
    choices = r"^(Roll|Buy |Pay |Pass|End turn|Claim)"
    while engine.next_actor(engine.from_dict(Game.objects.get(pk=game.pk).state)) == mover_number:
        version = Game.objects.get(pk=game.pk).version
        page.wait_for_selector(f'#actions[data-version="{version}"]')
        page.locator("body").focus()
        tab_to(page, choices)
        page.keyboard.press("Enter")
        page.wait_for_selector(f'#actions[data-version="{version + 1}"]')
    ctx.close()
