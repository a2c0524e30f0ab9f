"""Logging out in one tab ends the other tabs' live view: their socket
closes, the page reloads, and it shows the game as a signed-out visitor."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from tests.browser.test_live import context_for, daphne_url, people

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

__all__ = ["daphne_url"]


@pytest.mark.browser
def test_logging_out_in_one_tab_turns_the_other_tabs_game_page_anonymous(
    browser: Any, daphne_url: str
) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    context = context_for(browser, daphne_url, ada)
    playing, other = context.new_page(), context.new_page()
    for page in (playing, other):
        page.set_default_timeout(15_000)
    playing.goto(game.get_absolute_url())
    playing.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    assert playing.locator("#actions-title").inner_text() == "Your actions"

    other.goto("/lobby/")
    other.get_by_role("button", name="Log out").click()
    other.wait_for_selector("a:text('Log in')")

    # The socket's close makes the page load itself afresh, signed out.
    playing.wait_for_selector("a:text('Log in')")
    playing.wait_for_selector("#presence .presence-line:not(.muted)")
    assert playing.locator("#actions form").count() == 0
    assert playing.locator("#actions-title").inner_text() == "Actions"
    context.close()
