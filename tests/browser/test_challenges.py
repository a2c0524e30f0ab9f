"""A challenge clicked through: the host challenges from the game's page,
the challenged follows the notice to the challenge's page and accepts."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import services
from games.models import Game
from tests.browser.test_play import SHOTS, log_in


@pytest.mark.browser
@pytest.mark.slow  # two people's pages; the views are tested in tests/games
@pytest.mark.django_db(transaction=True)
def test_a_challenged_player_follows_the_notice_and_accepts(browser: Any, live_server: Any) -> None:
    alice, bob = (
        User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-12345")
        for name in ("alice", "bob")
    )
    game = services.create_game(host=alice, max_seats=2, is_public=False)
    pages = []
    for user in (alice, bob):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": 390, "height": 844}
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        log_in(page, user.username, f"pw-{user.username}-12345")
        pages.append(page)
    host, guest = pages
    host.goto(f"/games/{game.public_id}/")
    host.get_by_label("Challenge a player").fill("bob")
    host.get_by_role("button", name="Challenge", exact=True).click()
    host.get_by_text("bob has been challenged.").wait_for()
    guest.goto("/notifications/")
    guest.get_by_text("alice challenges you to a game").click()
    guest.get_by_role("button", name="Accept and take a seat").wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    guest.screenshot(path=str(SHOTS / "challenge.png"), full_page=True)
    guest.get_by_role("button", name="Accept and take a seat").click()
    guest.wait_for_url(f"**/games/{game.public_id}/")
    assert Game.objects.get(pk=game.pk).seats.filter(user=bob).exists()
    for page in pages:
        page.context.close()
