"""The site on a 390 x 844 phone: no page is wider than the screen, the
player to move sees their decision without scrolling, and the tab title
says when it is their move (issue #18)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
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

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


def phone(browser: Any, base_url: str, user: User | None) -> Any:
    # bypass_csp: the checks read the page with Playwright's string
    # expressions, which the site's policy (no eval) refuses.
    context = browser.new_context(
        base_url=base_url, viewport=PHONE, device_scale_factor=2, is_mobile=True,
        has_touch=True, bypass_csp=True,
    )  # fmt: skip
    if user is not None:
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user)}
        context.add_cookies([{**cookie, "url": base_url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def width_of(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def widest(page: Any) -> str:
    """The innermost elements that stick out on the right, to say what to fix."""
    return str(
        page.evaluate(
            """[...document.querySelectorAll('body *')].filter(e => {
                const r = e.getBoundingClientRect();
                return r.right > innerWidth + 1 && ![...e.children].some(
                    c => c.getBoundingClientRect().right > innerWidth + 1);
            }).slice(0, 4).map(e => e.tagName + '.' + e.className + ' ' +
                Math.round(e.getBoundingClientRect().right)).join(', ') + ' | ' +
            [...document.querySelectorAll('body *')].filter(
                e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX == 'visible'
            ).slice(-3).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + e.scrollWidth
            ).join(', ')"""
        )
    )


def mover_of(game: Game) -> User:
    game.refresh_from_db()
    seat = game.seats.get(number=engine.next_actor(engine.from_dict(game.state)))
    assert seat.user is not None
    return seat.user


@pytest.mark.browser
def test_no_page_is_wider_than_a_phone(browser: Any, site: str) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    finished = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    services.resign(public_id=finished.public_id, user=ada, expected_version=finished.version)
    waiting = services.create_game(host=ada)
    SHOTS.mkdir(parents=True, exist_ok=True)
    wide = []
    for user, urls in (
        (None, ["/", "/accounts/login/", "/accounts/signup/", "/leaderboard/", "/watch/"]),
        (
            ada,
            [
                "/",
                "/lobby/",
                "/watch/",
                "/leaderboard/",
                f"/u/{ada.username}/",
                "/settings/",
                "/notifications/",
                game.get_absolute_url(),
                finished.get_absolute_url(),
                f"/games/{finished.public_id}/replay/",
                waiting.get_absolute_url(),
            ],
        ),
    ):
        page = phone(browser, site, user)
        for url in urls:
            page.goto(url)
            page.wait_for_load_state("networkidle")
            slug = url.strip("/").replace("/", "-") or "home"
            for name, g in (("game", game), ("finished", finished), ("waiting", waiting)):
                slug = slug.replace(g.public_id, name)
            page.screenshot(path=str(SHOTS / f"phone-{slug}-{user or 'anonymous'}.png"))
            if width_of(page) > PHONE["width"]:
                wide.append(f"{url} ({user}): {width_of(page)} px: {widest(page)}")
        page.context.close()
    assert wide == [], "\n".join(wide)


@pytest.mark.browser
def test_the_player_to_move_sees_roll_without_scrolling(browser: Any, site: str) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    page = phone(browser, site, mover_of(game))
    page.goto(game.get_absolute_url())
    roll = page.get_by_role("button", name="Roll the dice")
    roll.wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-game.png"))
    page.screenshot(path=str(SHOTS / "phone-game-full.png"), full_page=True)
    box = roll.bounding_box()
    assert page.evaluate("window.scrollY") == 0
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    # The zoomed board is twice the screen's width, its current token in view.
    page.get_by_role("button", name="Zoom in").click()
    frame = page.locator(".board-frame").bounding_box()
    assert frame is not None and frame["width"] > 2 * PHONE["width"]
    scroller = page.locator(".board-scroll").bounding_box()
    token = page.locator("#board .token.current").bounding_box()
    assert scroller is not None and token is not None
    middle = (token["x"] + token["width"] / 2, token["y"] + token["height"] / 2)
    assert scroller["x"] < middle[0] < scroller["x"] + scroller["width"]
    assert scroller["y"] < middle[1] < scroller["y"] + scroller["height"]
    page.locator(".board-stack").screenshot(path=str(SHOTS / "phone-board-zoomed.png"))
    page.context.close()


@pytest.mark.browser
def test_the_title_says_whose_move_it_is_and_follows_the_game(browser: Any, site: str) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    mover = mover_of(game)
    other = grace if mover == ada else ada
    pages = {u.pk: phone(browser, site, u) for u in (mover, other)}
    for page in pages.values():
        page.goto(game.get_absolute_url())
        page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    title = f"Game {game.public_id}"
    assert pages[mover.pk].title().startswith(f"(1) Your move: {title}")
    assert pages[other.pk].title().startswith(title)
    # The mover plays their turn; both titles follow live.
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        pool.submit(play_turns, game, 1, notify=False).result()
    assert mover_of(game) == other
    mine = pages[mover.pk]
    pages[other.pk].wait_for_function(f"document.title.startsWith({f'(1) Your move: {title}'!r})")
    mine.wait_for_function(f"document.title.startsWith({title!r})")
    icon = pages[other.pk].locator("link[rel=icon]")
    assert "favicon-move" in icon.get_attribute("href")
    assert "favicon-move" not in mine.locator("link[rel=icon]").get_attribute("href")
    # "Your games" says so too, in the lobby's title.
    lobby = pages[other.pk]
    lobby.goto("/lobby/")
    assert lobby.title().startswith("(1) Your move: Lobby")
    for page in pages.values():
        page.context.close()
