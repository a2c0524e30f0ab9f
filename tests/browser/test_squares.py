"""Every board square opens its card, in a real browser under the site's
Content-Security-Policy: by the pointer and the keyboard, from the player's
property list, on a phone, and without a push closing it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import engine, services
from games.models import Game
from tests.browser.test_csp import Browsing
from tests.browser.test_live import people
from tests.browser.test_play import click_a_decision
from tests.conftest import setup_writes
from tests.live.servers import daphnes

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


def owned(game: Game, **owners: int) -> None:
    state = engine.setup(
        engine.from_dict(game.state), owners={int(k[2:]): v for k, v in owners.items()}
    )
    game.state = engine.to_dict(state)
    with setup_writes("a scripted position"):
        game.save(update_fields=["state"])


def card(page: Any, square: int) -> Any:
    """The open dialog, once it shows ``square``'s card."""
    page.locator(f'dialog#square-card[open] [data-card-square="{square}"]').wait_for()
    return page.locator("dialog#square-card[open]")


@pytest.mark.browser
def test_clicking_boardwalk_opens_its_deed(browser: Any, site: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ada, grace, carol = people("ada", "grace", "carol")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    mover_seat = engine.from_dict(game.state).turn
    other = 1 - mover_seat
    owned(game, sq37=mover_seat, sq39=other)
    mover = game.seats.get(number=mover_seat).user
    version = game.version

    player = Browsing(browser, site, mover)
    page = player.page()
    player.visit(page, game.get_absolute_url())

    # The pointer: Boardwalk's deed with its printed rents and its owner.
    page.locator('[data-square="39"]').click()
    deed = card(page, 39)
    assert deed.locator("h2").inner_text() == "Boardwalk"
    rents = deed.locator(".deed-rents").inner_text()
    assert "With a hotel\t$2,000" in rents and "Rent NOW\t$50" in rents  # the rent that applies
    owner = game.seats.get(number=other).user.username
    assert deed.locator(".deed-owner").inner_text() == owner
    page.screenshot(path=str(SHOTS / "square-deed.png"))
    page.keyboard.press("Escape")
    page.locator("dialog#square-card:not([open])").wait_for(state="attached")
    assert page.evaluate("document.activeElement.getAttribute('data-square')") == "39"

    # The keyboard: GO, from its square's button.
    page.locator('[data-square="0"]').focus()
    page.keyboard.press("Enter")
    assert "Collect $200 salary" in card(page, 0).inner_text()
    page.keyboard.press("Escape")
    page.locator('[data-square="7"]').focus()
    page.keyboard.press(" ")
    assert "16 of 16 cards" in card(page, 7).locator(".deck-left").inner_text()
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.getAttribute('data-square')") == "7"

    # The player's own property list opens a deed too.
    page.locator('#players [data-open-square="37"]').click()
    assert card(page, 37).locator("h2").inner_text() == "Park Place"
    page.keyboard.press("Escape")

    # A spectator opens a card, and a move pushed meanwhile leaves it open, redrawn.
    spectator = Browsing(browser, site, carol)
    watch = spectator.page()
    spectator.visit(watch, game.get_absolute_url())
    watch.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    watch.locator('[data-square="39"]').click()
    assert "$2,000" in card(watch, 39).inner_text()
    assert click_a_decision(page)
    watch.wait_for_selector(f'#board[data-version="{version + 1}"]')
    assert "$2,000" in card(watch, 39).inner_text()

    # A phone: the card fits the screen.
    phone = player.page()
    phone.set_viewport_size({"width": 390, "height": 844})
    player.visit(phone, game.get_absolute_url())
    phone.locator('[data-square="39"]').click()
    box = card(phone, 39).bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
    phone.screenshot(path=str(SHOTS / "square-deed-phone.png"))

    # The replay: the card of the square as it was at the step shown.
    replay = spectator.page()
    spectator.visit(replay, f"{game.get_absolute_url()}replay/?step=0")
    replay.locator('#board [data-square="39"]').click()
    assert card(replay, 39).locator(".deed-owner").inner_text() == "The bank (for sale)"
    # Stepping without a page load, the card asks for the step shown.
    replay.keyboard.press("Escape")
    replay.get_by_role("link", name="Last").click()
    game.refresh_from_db()
    replay.wait_for_selector(f'#replay-region[data-step="{game.version - 1}"]')
    with replay.expect_request(lambda r: "/square/39" in r.url) as asked:
        replay.locator('#board [data-square="39"]').click()
    assert asked.value.url.endswith(f"?step={game.version - 1}")
    card(replay, 39)

    for browsing, seen in (
        (player, page),
        (player, phone),
        (spectator, watch),
        (spectator, replay),
    ):
        browsing.collect(seen)
        assert browsing.complaints == [] and browsing.violations == []
