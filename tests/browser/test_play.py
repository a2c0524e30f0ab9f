"""Two people create, join and play a game using only the pages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games import engine
from games.models import Game

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"
# The order in which a scripted player prefers the buttons of "Your decision now".
PREFERENCE = [
    r"^Claim",
    r"^Pay .* owed",
    r"^Buy ",
    r"^Pass",
    r"^Pay \S+ Income Tax",
    r"^Pay the",
    r"^Roll",
    r"^End turn",
]


def log_in(page: Any, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username or email").fill(username)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/lobby/")


def click_a_decision(page: Any) -> bool:
    """Click one button of the decision group, if this player has one."""
    buttons = page.locator(
        ".action-group.decision form > button, .action-group.decision .input-row > button"
    )
    labels = [buttons.nth(i).inner_text().strip() for i in range(buttons.count())]
    for pattern in PREFERENCE:
        for index, label in enumerate(labels):
            if re.match(pattern, label):
                buttons.nth(index).click()
                page.wait_for_load_state("networkidle")
                return True
    return False


@pytest.mark.browser
@pytest.mark.slow  # 18 s; a whole game is clicked through in test_table_edges
@pytest.mark.django_db(transaction=True)
def test_two_players_create_join_and_play_turns_by_clicking(browser: Any, live_server: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name in ("ada", "grace"):
        User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-12345")
    host_ctx = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}
    )
    guest_ctx = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}
    )
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    for page in (host, guest):
        page.set_default_timeout(15_000)
    log_in(host, "ada", "pw-ada-12345")
    log_in(guest, "grace", "pw-grace-12345")

    host.get_by_label("Seats").select_option("2")
    host.get_by_label("Turn timer").select_option(str(3600))
    host.get_by_role("button", name="Create game").click()
    host.wait_for_url(re.compile(r"/games/\w+/$"))
    game_url = host.url

    guest.goto("/lobby/")
    guest.locator("#open-games").get_by_role("link", name="View").first.click()
    guest.get_by_role("button", name="Take a seat").click()
    assert guest.get_by_text("You have taken a seat.").is_visible()

    host.goto(game_url)
    host.get_by_role("button", name="Start game").click()
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE

    clicks = 0
    while clicks < 120:
        game.refresh_from_db()
        state = engine.from_dict(game.state)
        if state.turn_no >= 6 or state.finished:
            break
        acted = False
        for page in (host, guest):
            page.goto(game_url)
            if click_a_decision(page):
                acted = True
                clicks += 1
                break
        assert acted, "neither player was offered a decision"
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    assert state.turn_no >= 6 or state.finished
    assert game.events.filter(kind="action").count() >= 6

    host.goto(game_url)
    assert host.locator("#board svg").is_visible()
    assert host.locator("#board .token").count() == 2
    host.screenshot(path=str(SHOTS / "game-page.png"), full_page=True)
    host_ctx.close()
    guest_ctx.close()
