"""Bot accounts through the API: the bot scope, the host's leave, the cap
on games and the switch on /me."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.bot import set_bot_account
from accounts.models import User
from api import tokens
from api.models import ApiToken
from games import services
from tests.api.conftest import Api, api_for


def bot(user: User) -> User:
    set_bot_account(user, True)
    return user


def test_the_bot_scope_is_issued_only_to_bot_accounts(alice: User, bob: User) -> None:
    with pytest.raises(tokens.TokenError, match="only for bot accounts"):
        tokens.issue(alice, scopes=["bot"])
    with pytest.raises(tokens.TokenError, match="plays with the bot scope"):
        tokens.issue(bot(bob), scopes=["play"])
    row, _ = tokens.issue(bob, scopes=["bot"])
    assert row.scopes == ["bot"]
    out = io.StringIO()
    call_command("create_api_token", "bob", stdout=out)
    assert ApiToken.objects.filter(user=bob).order_by("-pk").first().scopes == ["bot"]  # type: ignore[union-attr]


def test_the_settings_page_offers_bot_only_to_a_bot_account(alice: User, bob: User) -> None:
    person = Client()
    person.force_login(alice)
    assert b'value="bot"' not in person.get("/settings/").content
    refused = person.post("/settings/api-tokens/new", {"scopes": ["bot"]}, follow=True)
    assert b"bot is only for bot accounts" in refused.content
    assert not ApiToken.objects.filter(user=alice).exists()
    program = Client()
    program.force_login(bot(bob))
    page = program.get("/settings/").content
    assert b'value="bot"' in page
    assert b'value="play"' not in page
    made = program.post("/settings/api-tokens/new", {"scopes": ["bot"]})
    assert made.status_code == 200
    assert Api(made.context["token"]).post("/games", {"seats": 2}).status_code == 201


def test_a_bot_account_plays_with_its_bot_token_only(alice: User) -> None:
    play = api_for(alice, "play,read")
    bot(alice)
    refused = play.post("/games", {"seats": 2})
    assert refused.status_code == 403
    assert "plays with a token of the 'bot' scope" in refused.json()["detail"]
    assert api_for(alice, "read").post("/games", {"seats": 2}).status_code == 403
    playing = api_for(alice, "bot")
    created = playing.post("/games", {"seats": 2})
    assert created.status_code == 201
    assert created.json()["players"][0]["bot_account"] is True
    assert playing.get(f"/games/{created.json()['id']}").status_code == 200


def test_a_bot_account_cannot_join_a_game_with_people_without_the_hosts_leave(
    alice: User, bob: User, alice_api: Api
) -> None:
    closed = alice_api.post("/games", {"seats": 2}).json()["id"]
    program = api_for(bot(bob), "bot")
    refused = program.post(f"/games/{closed}/join")
    assert refused.status_code == 403
    assert "has not allowed bot accounts" in refused.json()["detail"]
    opened = alice_api.post("/games", {"seats": 2, "allow_bot_accounts": True}).json()
    assert program.post(f"/games/{opened['id']}/join").status_code == 200


def test_a_bot_account_at_its_cap_gets_409(alice: User, settings: Any) -> None:
    settings.API_BOT_MAX_GAMES = 1
    program = api_for(bot(alice), "bot")
    assert program.post("/games", {"seats": 2}).status_code == 201
    refused = program.post("/games", {"seats": 2})
    assert refused.status_code == 409
    assert refused.json()["type"].endswith("/too-many-games")
    assert "API_BOT_MAX_GAMES = 1" in refused.json()["detail"]


def test_me_shows_the_account_and_switches_it_between_games(alice: User, alice_api: Api) -> None:
    mine = alice_api.get("/me").json()
    assert mine["username"] == "alice"
    assert mine["bot_account"] is False
    assert mine["scopes"] == ["play", "read"]
    game = services.create_game(host=alice, max_seats=2)
    busy = alice_api.client.patch(
        "/api/v1/me", data={"bot_account": True}, content_type="application/json",
        headers=alice_api.headers(),
    )  # fmt: skip
    assert busy.status_code == 409
    services.leave_game(public_id=game.public_id, user=alice)
    switched = alice_api.client.patch(
        "/api/v1/me", data={"bot_account": True}, content_type="application/json",
        headers=alice_api.headers(),
    )  # fmt: skip
    assert switched.status_code == 200
    assert switched.json()["bot_account"] is True
    assert switched.json()["scopes"] == ["read"]
    alice.refresh_from_db()
    assert alice.bot_account
