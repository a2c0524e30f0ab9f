"""Players' seeds on the site: given when joining (the page's browser
script, or any client), shown to their player only, changeable until the
start and fixed from it; the commitment public before any seed; the dice
key made of the secret and the seeds at the start."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import engine, services
from games.models import Game

pytestmark = pytest.mark.django_db

A_SEED = "a1" * 32
B_SEED = "b2" * 32


@pytest.fixture
def lobby(alice: User, bob: User) -> Game:
    game = services.create_game(host=alice, max_seats=3, bot_delay_ms=0, seed=A_SEED)
    services.join_game(public_id=game.public_id, user=bob, seed=B_SEED)
    game.refresh_from_db()
    return game


def test_the_commitment_is_public_on_the_lobby_page_before_any_seed(
    alice: User, client: Client
) -> None:
    game = services.create_game(host=alice, max_seats=2)
    assert game.seats.get().seed == ""
    body = client.get(f"/games/{game.public_id}/").content.decode()
    assert game.commitment and game.commitment in body
    assert game.secret not in body


def test_the_start_keys_the_dice_with_the_secret_and_the_seeds_in_seat_order(
    lobby: Game, alice: User, no_bot_tasks: Any
) -> None:
    commitment = lobby.commitment
    services.add_bot(public_id=lobby.public_id, user=alice)
    services.start_game(public_id=lobby.public_id, user=alice)
    lobby.refresh_from_db()
    assert lobby.commitment == commitment  # the secret committed to at creation
    assert lobby.seeds == [A_SEED, B_SEED, None]  # the bot's seat adds nothing
    key = engine.dice_key(lobby.secret, [A_SEED, B_SEED, None])
    assert engine.from_dict(lobby.state).secret == key == lobby.dice_key


def test_a_person_without_a_seed_is_marked_and_adds_nothing(
    alice: User, bob: User, client: Client, no_bot_tasks: Any
) -> None:
    game = services.create_game(host=alice, max_seats=2, seed=A_SEED)
    services.join_game(public_id=game.public_id, user=bob)  # an old client: no seed
    client.force_login(alice)
    assert "no seed yet" in client.get(f"/games/{game.public_id}/").content.decode()
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    assert game.seeds == [A_SEED, ""]
    assert game.dice_key == engine.dice_key(game.secret, [A_SEED, None])
    page = client.get(f"/games/{game.public_id}/").content.decode()
    assert "no seed" in page and A_SEED not in page  # seeds stay hidden while it runs


def test_a_game_of_site_bots_only_keeps_the_secret_as_its_key(no_bot_tasks: Any) -> None:
    game = services.create_seated_game(humans=[], bots=["heuristic", "random"], start=True)
    assert game.seeds is None and game.dice_key == game.secret
    assert engine.from_dict(game.state).secret == game.secret


def test_a_seed_can_be_changed_until_the_start_and_not_after(
    lobby: Game, alice: User, bob: User, no_bot_tasks: Any
) -> None:
    new = "c3" * 20
    services.set_seed(public_id=lobby.public_id, user=bob, seed=new.upper())
    assert lobby.seats.get(user=bob).seed == new
    services.set_seed(public_id=lobby.public_id, user=bob, seed="")
    assert lobby.seats.get(user=bob).seed == ""
    services.set_seed(public_id=lobby.public_id, user=bob, seed=B_SEED)
    services.start_game(public_id=lobby.public_id, user=alice)
    with pytest.raises(services.InvalidRequest, match="already started"):
        services.set_seed(public_id=lobby.public_id, user=bob, seed=new)
    lobby.refresh_from_db()
    assert lobby.seats.get(user=bob).seed == B_SEED and lobby.seeds == [A_SEED, B_SEED]


@pytest.mark.parametrize("seed", ["abc", "zz" * 32, "ab" * 15, "ab" * 65])
def test_a_malformed_seed_is_refused_with_the_reason(lobby: Game, bob: User, seed: str) -> None:
    with pytest.raises(services.InvalidRequest, match="seed"):
        services.set_seed(public_id=lobby.public_id, user=bob, seed=seed)
    assert lobby.seats.get(user=bob).seed == B_SEED


def test_only_seated_players_set_a_seed(lobby: Game, charlie: User) -> None:
    with pytest.raises(services.InvalidRequest, match="no seat"):
        services.set_seed(public_id=lobby.public_id, user=charlie, seed=A_SEED)


def test_the_lobby_page_shows_each_player_their_own_seed_only(
    lobby: Game, alice: User, bob: User, charlie: User, client: Client
) -> None:
    url = f"/games/{lobby.public_id}/"
    client.force_login(alice)
    body = client.get(url).content.decode()
    assert A_SEED in body and B_SEED not in body and "seed given" in body
    client.force_login(bob)
    body = client.get(url).content.decode()
    assert B_SEED in body and A_SEED not in body
    client.force_login(charlie)
    body = client.get(url).content.decode()
    assert A_SEED not in body and B_SEED not in body
    client.logout()
    body = client.get(url).content.decode()
    assert A_SEED not in body and B_SEED not in body


def test_the_page_joins_and_changes_seeds(
    alice: User, bob: User, client: Client, no_bot_tasks: Any
) -> None:
    game = services.create_game(host=alice, max_seats=2)
    client.force_login(bob)
    joined = client.post(f"/games/{game.public_id}/join", {"seed": B_SEED})
    assert joined.status_code == 302
    assert game.seats.get(user=bob).seed == B_SEED
    changed = client.post(f"/games/{game.public_id}/seed", {"seed": A_SEED}, follow=True)
    assert "Your dice seed is saved." in changed.content.decode()
    assert game.seats.get(user=bob).seed == A_SEED
    refused = client.post(f"/games/{game.public_id}/seed", {"seed": "nope"}, follow=True)
    assert "hexadecimal" in refused.content.decode()
    assert game.seats.get(user=bob).seed == A_SEED
    services.start_game(public_id=game.public_id, user=alice)
    late = client.post(f"/games/{game.public_id}/seed", {"seed": B_SEED}, follow=True)
    assert "already started" in late.content.decode()
    assert game.seats.get(user=bob).seed == A_SEED


def test_the_finished_game_shows_every_seed(
    lobby: Game, alice: User, bob: User, client: Client, no_bot_tasks: Any
) -> None:
    services.start_game(public_id=lobby.public_id, user=alice)
    lobby.refresh_from_db()
    services.resign(public_id=lobby.public_id, user=bob, expected_version=lobby.version)
    body = client.get(f"/games/{lobby.public_id}/").content.decode()
    assert A_SEED in body and B_SEED in body and "/fair-dice/verify" in body
    record = client.get(f"/games/{lobby.public_id}/record.json").json()
    assert record["seeds"] == [A_SEED, B_SEED]
    assert engine.verify_record(record).ok


def test_accepting_a_challenge_on_its_page_gives_the_browsers_seed(
    alice: User, bob: User, client: Client
) -> None:
    game = services.create_game(host=alice, max_seats=2, is_public=False)
    made = services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    client.force_login(bob)
    page = client.get(f"/challenges/{made.public_id}/").content.decode()
    assert game.commitment in page and "data-seed-new" in page
    client.post(f"/challenges/{made.public_id}/accept", {"seed": B_SEED})
    assert game.seats.get(user=bob).seed == B_SEED


def test_the_background_save_answers_204_or_the_refusal_without_a_message(
    alice: User, bob: User, client: Client, no_bot_tasks: Any
) -> None:
    game = services.create_game(host=alice, max_seats=2)
    services.join_game(public_id=game.public_id, user=bob)
    client.force_login(alice)
    url, fetch = f"/games/{game.public_id}/seed", {"X-Requested-With": "fetch"}
    saved = client.post(url, {"seed": A_SEED}, headers=fetch)
    assert saved.status_code == 204 and game.seats.get(user=alice).seed == A_SEED
    bad = client.post(url, {"seed": "xyz"}, headers=fetch)
    assert bad.status_code == 422 and "hexadecimal" in bad.content.decode()
    services.start_game(public_id=game.public_id, user=alice)
    late = client.post(url, {"seed": B_SEED}, headers=fetch)
    assert late.status_code == 422 and "already started" in late.content.decode()
    assert game.seats.get(user=alice).seed == A_SEED
    page = client.get(f"/games/{game.public_id}/").content.decode()
    assert "already started" not in page and "is saved" not in page  # nothing queued
