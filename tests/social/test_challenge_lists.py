"""The challenge forms list friends first, then people followed, then
people played with; a profile's Challenge button uses the existing
challenge service."""

from __future__ import annotations

from collections.abc import Iterator
from unittest import mock

import pytest
from django.test import Client

from accounts.models import User
from games import services as games
from games.models import Challenge, Game
from people import services
from tests.social.conftest import make_user

pytestmark = pytest.mark.django_db

CREATE = {"preset": "us-2003", "max_seats": "4", "turn_seconds": "3600", "visibility": "public"}


@pytest.fixture(autouse=True)
def _no_bot_moves() -> Iterator[None]:
    with mock.patch("games.scheduling.schedule_bots"):
        yield


def _options(body: str) -> list[str]:
    datalist = body.split('<datalist id="challenge-people">')[1].split("</datalist>")[0]
    return [part.split('"')[0] for part in datalist.split('<option value="')[1:]]


def test_create_form_lists_friends_then_followed_then_played_with(
    client: Client, alice: User
) -> None:
    zed, amy, opponent, stranger = (make_user(n) for n in ("zed", "amy", "opponent", "stranger"))
    services.do_follow(alice, amy)  # followed only
    services.do_follow(alice, zed)
    services.do_follow(zed, alice)  # friend
    games.create_seated_game(humans=[alice, opponent], bots=[])
    client.force_login(alice)
    options = _options(client.get("/lobby/").content.decode())
    assert options == ["zed", "amy", "opponent"]
    assert stranger.username not in options


def test_people_you_blocked_are_not_suggested(client: Client, alice: User, bob: User) -> None:
    services.do_follow(bob, alice)
    services.do_follow(alice, bob)
    services.do_block(alice, bob)
    client.force_login(alice)
    assert "bob" not in _options(client.get("/lobby/").content.decode())


def test_creating_a_game_with_a_challenge_invites_them(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(alice)
    response = client.post("/lobby/create", {**CREATE, "challenge": "bob"})
    assert response.status_code == 302
    made = Challenge.objects.get()
    assert made.challenger == alice and made.challenged == bob
    assert response["Location"] == made.game.get_absolute_url()


def test_a_refused_challenge_makes_no_game(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/lobby/create", {**CREATE, "challenge": "nobody-here"})
    assert response.status_code == 422
    assert "nobody-here" in response.content.decode()
    assert not Game.objects.exists() and not Challenge.objects.exists()


def test_a_profiles_challenge_button_fills_in_the_create_form(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(alice)
    profile = client.get("/u/bob/").content.decode()
    assert 'href="/lobby/?challenge=bob#create-game"' in profile
    lobby = client.get("/lobby/?challenge=bob").content.decode()
    assert 'name="challenge" id="create-challenge" value="bob"' in lobby


def test_a_profile_offers_the_hosts_lobby_games_with_a_free_seat(
    client: Client, alice: User, bob: User
) -> None:
    open_game = games.create_game(host=alice, max_seats=2)
    full = games.create_game(host=alice, max_seats=2)
    games.join_game(public_id=full.public_id, user=make_user("filler"))
    client.force_login(alice)
    profile = client.get("/u/bob/").content.decode()
    assert f'action="/games/{open_game.public_id}/challenge"' in profile
    assert f'action="/games/{full.public_id}/challenge"' not in profile
    response = client.post(f"/games/{open_game.public_id}/challenge", {"username": "bob"})
    assert response.status_code == 302
    assert Challenge.objects.filter(game=open_game, challenged=bob).exists()


def test_the_game_lobby_challenge_form_lists_friends_first_but_not_the_seated(
    client: Client, alice: User, bob: User
) -> None:
    amy = make_user("amy")
    services.do_follow(alice, amy)
    services.do_follow(alice, bob)
    services.do_follow(bob, alice)
    game = games.create_game(host=alice, max_seats=3)
    client.force_login(alice)
    assert _options(client.get(game.get_absolute_url()).content.decode()) == ["bob", "amy"]
    games.join_game(public_id=game.public_id, user=bob)
    assert _options(client.get(game.get_absolute_url()).content.decode()) == ["amy"]
