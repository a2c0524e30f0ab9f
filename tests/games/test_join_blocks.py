"""Blocks, privacy and a rated suspension at the lobby's doors: a blocked
person cannot challenge or join a hosted game and hears the same as for a
privacy refusal; joining beside someone you blocked asks you to confirm; a
suspended player keeps out of games that may be rated. Through the
services, the pages and the API."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Challenge, Game
from people import services as people
from people.models import Audience
from tests.api.conftest import api_for


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _lobby(host: User, **kwargs: object) -> Game:
    return services.create_game(host=host, max_seats=4, **kwargs)  # type: ignore[arg-type]


def _refusal(call: object) -> str:
    with pytest.raises(services.GameError) as caught:
        call()  # type: ignore[operator]
    return caught.value.message


# --- challenges ---------------------------------------------------------------------------


def test_a_blocked_challenger_hears_what_privacy_says(
    alice: User, bob: User, charlie: User
) -> None:
    game = _lobby(alice)
    people.do_block(bob, alice)
    blocked = _refusal(
        lambda: services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    )
    User.objects.filter(pk=charlie.pk).update(challenge_from=Audience.NOBODY)
    private = _refusal(
        lambda: services.challenge_player(public_id=game.public_id, user=alice, username="charlie")
    )
    assert blocked == "bob is not accepting challenges from you."
    assert private == blocked.replace("bob", "charlie")
    assert not Challenge.objects.exists()


def test_a_blocked_challenge_is_refused_on_the_page_and_the_api(alice: User, bob: User) -> None:
    game = _lobby(alice)
    people.do_block(bob, alice)
    page = _client(alice).post(
        f"/games/{game.public_id}/challenge", {"username": "bob"}, follow=True
    )
    assert "bob is not accepting challenges from you." in page.content.decode()
    answer = api_for(alice).post(f"/games/{game.public_id}/challenges", {"username": "bob"})
    assert answer.status_code == 403
    assert answer.json()["detail"] == "bob is not accepting challenges from you."
    assert "block" not in answer.content.decode().lower()
    assert not Challenge.objects.exists()


def test_people_i_follow_lets_a_followed_host_challenge(alice: User, bob: User) -> None:
    game = _lobby(alice)
    User.objects.filter(pk=bob.pk).update(challenge_from=Audience.FOLLOWING)
    with pytest.raises(services.NotAllowed):
        services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    people.do_follow(bob, alice)
    services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    assert Challenge.objects.filter(challenged=bob).exists()


# --- a host's block -----------------------------------------------------------------------


SHUT_OUT = "You cannot take a seat in this game."


def test_the_person_a_host_blocked_cannot_join_and_is_not_told_why(alice: User, bob: User) -> None:
    game = _lobby(alice)
    people.do_block(alice, bob)
    message = _refusal(lambda: services.join_game(public_id=game.public_id, user=bob))
    assert message == SHUT_OUT
    page = _client(bob).post(f"/games/{game.public_id}/join", follow=True)
    assert SHUT_OUT in page.content.decode()
    answer = api_for(bob).post(f"/games/{game.public_id}/join", {})
    assert answer.status_code == 403 and answer.json()["detail"] == SHUT_OUT
    assert not game.seats.filter(user=bob).exists()


def test_an_invite_link_does_not_let_the_blocked_in(alice: User, bob: User) -> None:
    game = _lobby(alice, is_public=False)
    people.do_block(alice, bob)
    guest = _client(bob)
    assert guest.get(f"/join/{game.invite_token}/").status_code == 302
    page = guest.post(f"/games/{game.public_id}/join", follow=True)
    assert SHUT_OUT in page.content.decode()
    answer = api_for(bob).post(f"/games/{game.public_id}/join", {"invite_token": game.invite_token})
    assert answer.status_code == 403 and answer.json()["detail"] == SHUT_OUT
    assert not game.seats.filter(user=bob).exists()


def test_a_challenge_accepted_after_the_host_blocked_is_refused(alice: User, bob: User) -> None:
    game = _lobby(alice)
    made = services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    people.do_block(alice, bob)
    page = _client(bob).post(f"/challenges/{made.public_id}/accept", follow=True)
    assert SHUT_OUT in page.content.decode()
    assert not game.seats.filter(user=bob).exists()


def test_a_block_by_another_player_does_not_keep_anyone_out(
    alice: User, bob: User, charlie: User
) -> None:
    game = _lobby(alice)
    services.join_game(public_id=game.public_id, user=charlie)
    people.do_block(charlie, bob)
    services.join_game(public_id=game.public_id, user=bob)
    assert game.seats.filter(user=bob).exists()


# --- joining beside someone you blocked ---------------------------------------------------


def test_joining_beside_someone_you_blocked_asks_to_confirm_on_the_page(
    alice: User, bob: User
) -> None:
    game = _lobby(alice)
    people.do_block(bob, alice)
    guest = _client(bob)
    lobby = guest.get(f"/games/{game.public_id}/").content.decode()
    assert "You have blocked alice, who plays in this game." in lobby
    assert 'name="confirm_blocked"' in lobby
    unconfirmed = guest.post(f"/games/{game.public_id}/join", follow=True)
    assert "Join anyway?" in unconfirmed.content.decode()
    assert not game.seats.filter(user=bob).exists()
    guest.post(f"/games/{game.public_id}/join", {"confirm_blocked": "1"})
    assert game.seats.filter(user=bob).exists()


def test_joining_beside_someone_you_blocked_asks_to_confirm_on_the_api(
    alice: User, bob: User
) -> None:
    game = _lobby(alice)
    people.do_block(bob, alice)
    api = api_for(bob)
    answer = api.post(f"/games/{game.public_id}/join", {})
    assert answer.status_code == 409
    problem = answer.json()
    assert problem["type"].endswith("blocked-player-seated")
    assert "alice" in problem["detail"]
    assert not game.seats.filter(user=bob).exists()
    assert api.post(f"/games/{game.public_id}/join", {"confirm_blocked": True}).status_code == 200
    assert game.seats.filter(user=bob).exists()


def test_a_lobby_with_nobody_blocked_asks_nothing(alice: User, bob: User) -> None:
    game = _lobby(alice)
    lobby = _client(bob).get(f"/games/{game.public_id}/").content.decode()
    assert 'name="confirm_blocked"' not in lobby
    services.join_game(public_id=game.public_id, user=bob)


# --- a suspension from rated play ---------------------------------------------------------


def _suspend(user: User) -> None:
    User.objects.filter(pk=user.pk).update(rated_suspended=True)
    user.refresh_from_db()


def test_a_suspended_player_cannot_join_a_game_that_may_be_rated(alice: User, bob: User) -> None:
    game = _lobby(alice)
    _suspend(bob)
    message = _refusal(lambda: services.join_game(public_id=game.public_id, user=bob))
    assert "suspended from rated play" in message
    answer = api_for(bob).post(f"/games/{game.public_id}/join", {})
    assert answer.status_code == 403 and "suspended from rated play" in answer.json()["detail"]
    assert not game.seats.filter(user=bob).exists()


def test_a_suspended_player_joins_an_unrated_game_with_a_site_bot(alice: User, bob: User) -> None:
    game = _lobby(alice)
    services.add_bot(public_id=game.public_id, user=alice)
    _suspend(bob)
    services.join_game(public_id=game.public_id, user=bob)
    assert game.seats.filter(user=bob).exists()


def test_a_suspended_player_cannot_create_a_game_rated_with_bots(alice: User) -> None:
    _suspend(alice)
    message = _refusal(lambda: _lobby(alice, rated_with_bots=True))
    assert "suspended from rated play" in message
    _lobby(alice)  # unrated once a bot sits in it: allowed


def test_a_game_cannot_start_rated_with_a_suspended_player(alice: User, bob: User) -> None:
    game = _lobby(alice)
    bot = services.add_bot(public_id=game.public_id, user=alice)
    _suspend(bob)
    services.join_game(public_id=game.public_id, user=bob)
    services.remove_bot(public_id=game.public_id, user=alice, seat_number=bot.number)
    message = _refusal(lambda: services.start_game(public_id=game.public_id, user=alice))
    assert "may not play rated games" in message
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY
