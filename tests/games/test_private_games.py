"""A private game is seen only by its seated players and by holders of its
current invite token: every page, record and list that shows a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import setup_writes

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _no_bot_tasks(no_bot_tasks: mock.Mock) -> mock.Mock:
    return no_bot_tasks


def signed_in(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


PAGES: dict[str, Callable[[Game], str]] = {
    "page": lambda game: game.get_absolute_url(),
    "regions": lambda game: f"{game.get_absolute_url()}regions",
    "record": lambda game: f"{game.get_absolute_url()}record.json",
    "replay": lambda game: f"{game.get_absolute_url()}replay/",
}


@pytest.mark.parametrize("surface", sorted(PAGES))
@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_outsiders_get_no_page_of_a_private_game(
    private_duel: Game, charlie: User, surface: str, who: str
) -> None:
    client = signed_in(charlie if who == "stranger" else None)
    assert client.get(PAGES[surface](private_duel)).status_code == 404


@pytest.mark.parametrize("surface", sorted(PAGES))
def test_a_seated_player_gets_every_page_of_a_private_game(
    private_duel: Game, bob: User, surface: str
) -> None:
    assert signed_in(bob).get(PAGES[surface](private_duel)).status_code == 200


@pytest.mark.parametrize("surface", sorted(PAGES))
@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_the_invite_link_opens_every_page_of_a_private_game(
    private_duel: Game, charlie: User, surface: str, who: str
) -> None:
    client = signed_in(charlie if who == "stranger" else None)
    response = client.get(f"/join/{private_duel.invite_token}/")
    assert response.status_code == 302
    # The token is remembered in the session, not carried in the address.
    assert response["Location"] == private_duel.get_absolute_url()
    assert client.get(PAGES[surface](private_duel)).status_code == 200


def test_an_invite_token_in_the_address_opens_the_page(private_duel: Game, charlie: User) -> None:
    client = signed_in(charlie)
    url = private_duel.get_absolute_url()
    assert client.get(f"{url}?invite={private_duel.invite_token}").status_code == 200
    assert client.get(url).status_code == 200  # remembered from then on


@pytest.mark.parametrize("token", ["", "x", "not-the-token", "é" * 43])
def test_a_wrong_invite_token_opens_nothing(private_duel: Game, charlie: User, token: str) -> None:
    client = signed_in(charlie)
    assert client.get(f"/join/{token}/").status_code == 404
    url = private_duel.get_absolute_url()
    assert client.get(url, {"invite": token}).status_code == 404
    assert client.get(f"{url}record.json", {"invite": token}).status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_outsiders_cannot_post_in_a_private_games_chat(
    private_duel: Game, charlie: User, who: str
) -> None:
    client = signed_in(charlie if who == "stranger" else None)
    response = client.post(f"{private_duel.get_absolute_url()}chat/players", {"body": "hi"})
    # Anonymous visitors are sent to log in first; neither finds the game.
    assert response.status_code == (404 if who == "stranger" else 302)
    assert not private_duel.chat_messages.exists()


def test_an_invited_spectator_cannot_post_in_a_private_games_chat(
    private_duel: Game, charlie: User
) -> None:
    client = signed_in(charlie)
    client.get(f"/join/{private_duel.invite_token}/")
    for room in ("players", "spectators"):
        response = client.post(
            f"{private_duel.get_absolute_url()}chat/{room}", {"body": "hi"}, **HTMX
        )
        assert response.status_code == 403
    assert not private_duel.chat_messages.exists()


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_private_games_are_in_no_list(
    private_duel: Game, alice: User, charlie: User, who: str
) -> None:
    lobby_game = services.create_game(host=alice, is_public=False)
    client = signed_in(charlie if who == "stranger" else None)
    for url in ("/", "/lobby/", "/watch/", "/u/alice/", "/u/bob/"):
        body = client.get(url).content.decode()
        assert private_duel.public_id not in body, url
        assert lobby_game.public_id not in body, url


def test_a_profile_lists_private_games_to_their_players(
    private_duel: Game, alice: User, bob: User
) -> None:
    assert private_duel.public_id in signed_in(bob).get("/u/alice/").content.decode()


def test_a_profile_lists_public_games_to_everyone(duel: Game, charlie: User) -> None:
    assert duel.public_id in signed_in(None).get("/u/alice/").content.decode()


# --- rotating the invite link ---------------------------------------------------------


def rotate(client: Client, game: Game, **extra: Any) -> Any:
    return client.post(f"{game.get_absolute_url()}invite/rotate", **extra)


def test_the_host_rotates_the_invite_link(alice: User, charlie: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    old = game.invite_token
    response = rotate(signed_in(alice), game, **HTMX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.invite_token != old and len(game.invite_token) >= 43
    assert f"/join/{game.invite_token}/" in response.content.decode()
    guest = signed_in(charlie)
    assert guest.get(f"/join/{old}/").status_code == 404
    assert guest.get(game.get_absolute_url(), {"invite": old}).status_code == 404
    assert guest.get(f"/join/{game.invite_token}/").status_code == 302
    assert guest.get(game.get_absolute_url()).status_code == 200


def test_rotating_shuts_out_those_who_only_had_the_old_link(
    private_duel: Game, alice: User, bob: User, charlie: User
) -> None:
    guest = signed_in(charlie)
    guest.get(f"/join/{private_duel.invite_token}/")
    assert guest.get(private_duel.get_absolute_url()).status_code == 200
    assert rotate(signed_in(alice), private_duel).status_code == 302
    assert guest.get(private_duel.get_absolute_url()).status_code == 404
    assert signed_in(bob).get(private_duel.get_absolute_url()).status_code == 200


def test_an_old_link_no_longer_lets_anyone_join(alice: User, charlie: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    old = game.invite_token
    rotate(signed_in(alice), game)
    with pytest.raises(services.NotAllowed):
        services.join_game(public_id=game.public_id, user=charlie, invite_token=old)
    guest = signed_in(charlie)
    guest.post(f"{game.get_absolute_url()}join", {"invite_token": old})
    assert not game.seats.filter(user=charlie).exists()


def test_only_the_host_rotates_the_invite_link(alice: User, bob: User, charlie: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    services.join_game(public_id=game.public_id, user=bob, invite_token=game.invite_token)
    old = game.invite_token
    assert rotate(signed_in(bob), game, **HTMX).status_code == 403  # seated, not the host
    assert rotate(signed_in(charlie), game, **HTMX).status_code == 404  # cannot see it
    assert rotate(signed_in(None), game).status_code == 302  # to the login page
    game.refresh_from_db()
    assert game.invite_token == old


def test_an_invited_guest_cannot_rotate_the_link(alice: User, charlie: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    guest = signed_in(charlie)
    guest.get(f"/join/{game.invite_token}/")
    old = game.invite_token
    assert rotate(guest, game, **HTMX).status_code == 403
    game.refresh_from_db()
    assert game.invite_token == old


def test_rotating_needs_a_post(alice: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    assert signed_in(alice).get(f"{game.get_absolute_url()}invite/rotate").status_code == 405


def test_a_finished_games_link_cannot_be_rotated(alice: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    with setup_writes("a game over"):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(services.InvalidRequest):
        services.do_rotate_invite(public_id=game.public_id, user=alice)


def test_an_older_short_invite_token_still_works(alice: User, charlie: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    with setup_writes("an invite token of the older, shorter kind"):
        Game.objects.filter(pk=game.pk).update(invite_token="short-old-token-1234567")
    guest = signed_in(charlie)
    assert guest.get("/join/short-old-token-1234567/").status_code == 302
    assert guest.get(game.get_absolute_url()).status_code == 200


def test_new_games_get_long_random_invite_tokens(alice: User) -> None:
    tokens = {services.create_game(host=alice).invite_token for _ in range(3)}
    assert len(tokens) == 3
    assert all(len(token) >= 43 for token in tokens)  # 32 bytes, base64url


def test_an_invited_visitor_takes_a_seat_with_the_remembered_token(
    alice: User, charlie: User
) -> None:
    game = services.create_game(host=alice, is_public=False)
    guest = signed_in(charlie)
    guest.get(f"/join/{game.invite_token}/")
    page = guest.get(game.get_absolute_url()).content.decode()
    assert "Take a seat" in page
    response = guest.post(f"{game.get_absolute_url()}join")
    assert response["Location"] == game.get_absolute_url()
    assert game.seats.filter(user=charlie).exists()
