from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import User

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_visitor_signs_up_logs_out_logs_in_and_sees_the_lobby(page: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("browser_bob")
    page.get_by_label("Email").fill("bob@example.com")
    page.get_by_label("Password:", exact=True).fill("a-long-browser-password-1")
    page.get_by_label("Password (again)").fill("a-long-browser-password-1")
    page.screenshot(path=str(SHOTS / "signup.png"), full_page=True)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/lobby/")
    assert page.get_by_role("heading", name="Lobby").is_visible()
    assert User.objects.filter(username="browser_bob").exists()

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username or email").fill("browser_bob")
    page.get_by_label("Password:", exact=True).fill("a-long-browser-password-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/lobby/")
    assert page.get_by_role("heading", name="Lobby").is_visible()
    assert page.get_by_role("link", name="browser_bob").is_visible()
    page.screenshot(path=str(SHOTS / "lobby.png"), full_page=True)
