"""A player who acts too fast reads why in the action panel."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from accounts.models import User
from common.env import env_rates
from games import engine, services
from tests.browser.test_play import log_in
from tests.conftest import setup_writes


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_action_panel_shows_the_rate_limit(page: Any, settings: Any) -> None:
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "action": env_rates("TEST", "1/1m/user", {"user", "ip"}, environ={}),
    }
    ada = User.objects.create_user("ada", "ada@example.com", "pw-ada-12345")
    grace = User.objects.create_user("grace", "grace@example.com", "pw-grace-12345")
    with mock.patch("games.scheduling.schedule_bots"):
        game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    state = engine.from_dict(game.state)
    state.turn = 0
    engine.force_dice(state, (4, 6))  # to Just Visiting: the turn can end
    game.state = engine.to_dict(state)
    with setup_writes("a scripted position"):
        game.save(update_fields=["state"])

    log_in(page, "ada", "pw-ada-12345")
    page.goto(game.get_absolute_url())
    page.locator("#actions").get_by_role("button", name="Roll").click()
    page.locator("#actions").get_by_role("button", name="End turn").click()
    alert = page.locator("#actions [role=alert]")
    alert.wait_for()
    assert "You are acting too quickly." in alert.inner_text()
    game.refresh_from_db()
    assert engine.from_dict(game.state).turn == 0
