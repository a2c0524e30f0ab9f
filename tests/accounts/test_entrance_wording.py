"""Signing up and logging in use one wording, in sentence case: "Sign up",
"Log in", "Log out", never allauth's "Sign In", "Sign Up" or "sign in"."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

OTHER_WORDING = re.compile(r"(?i:sign[ -]?in|sign[ -]?out|signup)|Sign Up")


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/accounts/logout/"])
def test_entrance_pages_say_sign_up_and_log_in(client: Client, url: str, alice: User) -> None:
    if url.endswith("logout/"):
        client.force_login(alice)
    text = visible_text(client.get(url).content.decode())
    assert OTHER_WORDING.findall(text) == [], url


def test_login_page_offers_log_in_and_sign_up(client: Client) -> None:
    text = visible_text(client.get("/accounts/login/").content.decode())
    assert "Log in" in text and "Sign up" in text


def test_logging_in_and_out_say_so_in_the_same_words(client: Client, alice: User) -> None:
    response = client.post(
        "/accounts/login/", {"login": "alice", "password": PASSWORD}, follow=True
    )
    messages = [str(m) for m in response.context["messages"]]
    assert messages and all(not OTHER_WORDING.search(m) for m in messages), messages
    assert any("Logged in as" in m for m in messages), messages
    response = client.post("/accounts/logout/", follow=True)
    messages = [str(m) for m in response.context["messages"]]
    assert "You have logged out." in messages
