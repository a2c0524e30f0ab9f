"""Bot accounts: the settings switch, where they may sit, the pages refuse
their moves, the BOT badge and their cap on games."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.bot import BotAccountError, set_bot_account
from accounts.models import User
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def make_bot(user: User) -> User:
    set_bot_account(user, True)
    user.refresh_from_db()
    return user


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_settings_page_explains_and_switches_only_with_confirmation(alice: User) -> None:
    client = logged_in(alice)
    page = client.get("/settings/")
    assert b"Make this a bot account" in page.content
    assert b"plays only through the API" in page.content
    refused = client.post("/settings/bot-account", {"bot_account": "on"}, follow=True)
    assert b"Tick the box to confirm" in refused.content
    alice.refresh_from_db()
    assert not alice.bot_account
    client.post("/settings/bot-account", {"bot_account": "on", "confirm": "yes"})
    alice.refresh_from_db()
    assert alice.bot_account
    assert b"Stop being a bot account" in client.get("/settings/").content
    client.post("/settings/bot-account", {"bot_account": "off", "confirm": "yes"})
    alice.refresh_from_db()
    assert not alice.bot_account


def test_the_switch_waits_until_the_account_has_no_open_game(alice: User) -> None:
    services.create_game(host=alice, max_seats=2)
    with pytest.raises(BotAccountError, match="finish or leave it"):
        set_bot_account(alice, True)
    page = logged_in(alice).post(
        "/settings/bot-account", {"bot_account": "on", "confirm": "yes"}, follow=True
    )
    assert b"finish or leave it" in page.content
    alice.refresh_from_db()
    assert not alice.bot_account


def test_a_bot_account_cannot_join_a_game_with_people_without_the_hosts_leave(
    alice: User, bob: User
) -> None:
    game = services.create_game(host=alice, max_seats=2)
    with pytest.raises(services.NotAllowed, match="has not allowed bot accounts"):
        services.join_game(public_id=game.public_id, user=make_bot(bob))
    assert game.seats.count() == 1


def test_a_person_cannot_join_a_game_among_bot_accounts(alice: User, bob: User) -> None:
    game = services.create_game(host=make_bot(alice), max_seats=2)
    with pytest.raises(services.NotAllowed, match="among bot accounts"):
        services.join_game(public_id=game.public_id, user=bob)


def test_a_bot_account_joins_a_game_whose_host_allows_bot_accounts(alice: User, bob: User) -> None:
    game = services.create_game(host=alice, max_seats=2, allow_bot_accounts=True)
    services.join_game(public_id=game.public_id, user=make_bot(bob))
    assert game.seats.filter(user=bob).exists()


def test_the_lobby_form_offers_the_hosts_leave_for_bot_accounts(alice: User) -> None:
    client = logged_in(alice)
    assert b"Allow bot accounts" in client.get("/lobby/").content
    client.post(
        "/lobby/create",
        {"preset": "us-2003", "max_seats": 2, "turn_seconds": 3600, "visibility": "public",
         "allow_bot_accounts": "on"},
    )  # fmt: skip
    assert Game.objects.get(host=alice).allow_bot_accounts


def test_a_bot_account_is_capped_at_api_bot_max_games(alice: User, settings: object) -> None:
    settings.API_BOT_MAX_GAMES = 2  # type: ignore[attr-defined]
    make_bot(alice)
    for _ in range(2):
        services.create_game(host=alice, max_seats=2)
    with pytest.raises(services.TooManyGames, match="API_BOT_MAX_GAMES = 2"):
        services.create_game(host=alice, max_seats=2)
    assert Game.objects.filter(host=alice).count() == 2


def test_the_pages_refuse_a_bot_accounts_moves(alice: User, bob: User) -> None:
    game = services.create_game(host=alice, max_seats=2, allow_bot_accounts=True)
    services.join_game(public_id=game.public_id, user=make_bot(bob))
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    client = logged_in(bob)
    answer = client.post(
        f"/games/{game.public_id}/act",
        {"kind": "roll", "expected_version": game.version},
        follow=True,
    )
    assert b"plays only through the API" in answer.content
    htmx = client.post(
        f"/games/{game.public_id}/resign",
        {"expected_version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert htmx.status_code == 403
    assert b"plays only through the API" in htmx.content
    refreshed = Game.objects.get(pk=game.pk)
    assert refreshed.version == game.version
    created = client.post("/lobby/create", {"preset": "us-2003", "max_seats": 2}, follow=True)
    assert b"plays only through the API" in created.content
    assert Game.objects.filter(host=bob).count() == 0


def test_the_bot_badge_shows_beside_a_bot_accounts_name(alice: User, bob: User) -> None:
    make_bot(bob)
    game = services.create_game(host=alice, max_seats=2, allow_bot_accounts=True)
    services.join_game(public_id=game.public_id, user=bob)
    badge = b'class="badge bot-account"'
    viewer = logged_in(alice)
    assert badge in viewer.get(f"/u/{bob.username}/").content
    assert badge not in viewer.get(f"/u/{alice.username}/").content
    assert badge in viewer.get(f"/games/{game.public_id}/").content
    services.start_game(public_id=game.public_id, user=alice)
    assert badge in viewer.get(f"/games/{game.public_id}/").content
    assert badge in viewer.get("/watch/").content
    bots_game = services.create_game(host=bob, max_seats=2)
    lobby = viewer.get("/lobby/").content
    assert bots_game.public_id.encode() in lobby
    assert badge in lobby
