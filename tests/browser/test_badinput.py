"""A control character in a form is refused where the form is, and the
page stays usable (monopoly_site/badinput.py)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from accounts.models import User
from games import engine, services
from games.models import Game
from live.models import ChatMessage
from tests.browser.test_play import log_in
from tests.conftest import setup_writes


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_chat_and_the_action_panel_say_why_a_control_character_is_refused(page: Any) -> None:
    ada = User.objects.create_user("ada", "ada@example.com", "pw-ada-12345")
    grace = User.objects.create_user("grace", "grace@example.com", "pw-grace-12345")
    with mock.patch("games.scheduling.schedule_bots"):
        game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    state = engine.from_dict(game.state)
    state.turn = 0
    game.state = engine.to_dict(state)
    with setup_writes("a scripted position"):
        game.save(update_fields=["state"])
    version = game.version

    log_in(page, "ada", "pw-ada-12345")
    page.goto(game.get_absolute_url())
    page.locator("#chat-players-body").fill("tab\x0bbed")
    page.locator("#chat-players-body").press("Enter")
    error = page.locator(".chat-form .chat-error")
    error.get_by_text("contains a control character (U+000B)").wait_for()
    assert not ChatMessage.objects.exists()

    # A tampered form: the panel keeps its buttons and says why at its top.
    button = page.locator("#actions").get_by_role("button", name="Roll")
    kind = button.locator("xpath=ancestor::form").locator("input[name=kind]")
    kind.evaluate("input => { input.value = 'roll\\u0000'; }")
    button.click()
    alert = page.locator("#actions > p.error[role=alert]")
    alert.wait_for()
    assert "“kind” contains a control character (U+0000)" in alert.inner_text()
    assert page.locator("#actions").get_by_role("button", name="Roll").is_visible()
    assert Game.objects.get(pk=game.pk).version == version
