from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from people.models import Audience

pytestmark = pytest.mark.django_db


def test_privacy_page_needs_a_sign_in(client: Client) -> None:
    response = client.get("/settings/privacy")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_privacy_page_shows_the_current_choices(client: Client, alice: User) -> None:
    alice.message_from = Audience.FOLLOWING
    alice.save(update_fields=["message_from"])
    client.force_login(alice)
    body = client.get("/settings/privacy").content.decode()
    assert "Who may challenge me" in body and "Who may message me" in body
    assert 'name="message_from" value="following"' in body
    assert 'value="following" class="" required id="id_message_from_1" checked' in body or (
        'id="id_message_from_1" checked' in body
    )


def test_saves_each_audience_and_the_no_chat_switch(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(
        "/settings/privacy",
        {
            "challenge_from": "nobody",
            "message_from": "following",
            "chat_from": "following",
            "no_chat": "on",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/settings/privacy"
    alice.refresh_from_db()
    assert alice.challenge_from == Audience.NOBODY
    assert alice.message_from == Audience.FOLLOWING
    assert alice.chat_from == Audience.FOLLOWING
    assert alice.no_chat is True


def test_rejects_an_unknown_audience_and_changes_nothing(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(
        "/settings/privacy",
        {
            "challenge_from": "friends-of-friends",
            "message_from": "nobody",
            "chat_from": "nobody",
            "no_chat": "on",
        },
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert "Nothing was saved" in body and "Select a valid choice" in body
    alice.refresh_from_db()
    assert alice.challenge_from == Audience.EVERYONE
    assert alice.message_from == Audience.EVERYONE
    assert alice.no_chat is False


def test_rejects_a_control_character_and_changes_nothing(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(
        "/settings/privacy",
        {"challenge_from": "nobody\x00", "message_from": "nobody", "chat_from": "nobody"},
    )
    assert response.status_code in (400, 422)
    alice.refresh_from_db()
    assert alice.challenge_from == Audience.EVERYONE
    assert alice.message_from == Audience.EVERYONE


def test_settings_page_links_to_privacy(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert 'href="/settings/privacy"' in client.get("/settings/").content.decode()
