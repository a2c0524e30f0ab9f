"""Lobby pages, game set-up and invite links through the test client."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils.html import escape

from accounts.models import User
from games import services, standing_orders
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_bot_tasks(no_bot_tasks: mock.Mock) -> mock.Mock:
    return no_bot_tasks


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def test_lobby_lists_open_public_games_only(client: Client, alice: User) -> None:
    public = services.create_game(host=alice, preset="uk", turn_seconds=3600)
    private = services.create_game(host=alice, is_public=False)
    body = client.get("/lobby/").content.decode()
    assert public.public_id in body
    assert "UK rules" in body and "1 hour" in body and "1 / 4" in body
    assert private.public_id not in body


def test_lobby_shows_your_games_with_your_move(alice_client: Client, alice: User) -> None:
    game = services.create_seated_game(humans=[alice], bots=["heuristic"], start=True)
    body = alice_client.get("/lobby/").content.decode()
    assert game.public_id in body


def test_lobby_links_a_players_finished_games_once_none_is_in_play(
    alice_client: Client, alice: User, bob: User
) -> None:
    game = services.create_seated_game(humans=[alice, bob], bots=[], start=True)
    game.refresh_from_db()
    services.resign(public_id=game.public_id, user=bob, expected_version=game.version)
    body = alice_client.get("/lobby/").content.decode()
    assert "not in any game" not in body
    assert "No games in play" in body
    assert f'href="{game.get_absolute_url()}"' in body
    assert 'href="/u/alice/"' in body


def test_lobby_tells_a_newcomer_they_are_in_no_game_yet(alice_client: Client) -> None:
    assert "You are not in any game yet" in alice_client.get("/lobby/").content.decode()


def test_the_pushed_your_games_links_the_finished_games_too(alice: User, bob: User) -> None:
    from live.broadcast import your_games_html

    game = services.create_seated_game(humans=[alice, bob], bots=[], start=True)
    game.refresh_from_db()
    services.resign(public_id=game.public_id, user=bob, expected_version=game.version)
    html = your_games_html(bob)
    assert "No games in play" in html and game.get_absolute_url() in html


def test_create_game_with_switches_stores_only_overrides(alice_client: Client) -> None:
    response = alice_client.post(
        "/lobby/create",
        {
            "preset": "us-2003",
            "max_seats": "3",
            "turn_seconds": "300",
            "visibility": "private",
            "switches_present": "1",
            # us-2003 defaults, except the jackpot switched on and auctions off.
            "sw_free_parking_jackpot": "on",
            "sw_double_rent_with_mortgage_in_group": "on",
            "sw_mortgaged_railroads_count": "on",
            "sw_income_tax_choice": "on",
            "sw_bankrupt_to_bank_auction": "on",
            "sw_building_shortage_auctions": "on",
            "sw_third_doubles_to_jail": "on",
            "sw_deal_deeds_paid": "on",
            "sw_starting_cash": "2000",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.public_id}/"
    assert game.switches == {"free_parking_jackpot": True, "auctions": False, "starting_cash": 2000}
    assert (game.max_seats, game.turn_seconds, game.is_public) == (3, 300, False)


def test_create_game_rejects_bad_switch_value_and_creates_nothing(alice_client: Client) -> None:
    response = alice_client.post(
        "/lobby/create",
        {
            "preset": "us-2003",
            "max_seats": "4",
            "turn_seconds": "3600",
            "visibility": "public",
            "switches_present": "1",
            "sw_starting_cash": "lots",
        },
    )
    assert response.status_code == 422
    assert b"whole number" in response.content
    assert not Game.objects.exists()


def test_create_game_requires_login(client: Client) -> None:
    response = client.post("/lobby/create", {"preset": "us-2003"})
    assert response.status_code == 302
    assert not Game.objects.exists()


def test_switches_partial_follows_the_preset(client: Client) -> None:
    body = client.get("/lobby/switches?preset=uk", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="switches"' in body
    assert "<html" not in body
    assert 'value="next_throw" selected' in body


def test_join_leave_and_start_through_pages(alice: User, bob: User) -> None:
    host, guest = Client(), Client()
    host.force_login(alice)
    guest.force_login(bob)
    game = services.create_game(host=alice, max_seats=3)
    url = f"/games/{game.public_id}/"
    assert b"Take a seat" in guest.get(url).content
    guest.post(url + "join")
    assert game.seats.count() == 2
    host.post(url + "bots/add", {"kind": "random"})
    assert game.seats.filter(bot_kind="random").exists()
    response = guest.post(url + "start", follow=True)
    assert b"Only the host" in response.content
    host.post(url + "start")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_private_game_page_is_hidden_without_invite(client: Client, alice: User, bob: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    client.force_login(bob)
    assert client.get(f"/games/{game.public_id}/").status_code == 404
    invite = client.get(f"/join/{game.invite_token}/")
    assert invite.status_code == 302
    page = client.get(invite["Location"])
    assert page.status_code == 200
    client.post(f"/games/{game.public_id}/join", {"invite_token": game.invite_token})
    assert game.seats.filter(user=bob).exists()


def test_create_demo_game_command_prints_public_id_last(alice: User, capsys) -> None:
    call_command("create_demo_game", "--bots", "3", "--humans", "alice", "--private", "--start")
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    game = Game.objects.get(public_id=last_line)
    assert game.status == Game.Status.ACTIVE
    assert not game.is_public
    assert game.seats.count() == 4


def test_a_days_long_game_suggests_standing_orders_in_one_click(
    alice_client: Client, alice: User, bob: User
) -> None:
    game = services.create_game(host=alice, max_seats=3, turn_seconds=24 * 3600)
    url = f"/games/{game.public_id}/"
    body = alice_client.get(url).content.decode()
    assert "Suggested for a days-long game" in body
    # Each default, explained in one line.
    for name, line in standing_orders.SUGGESTED_LINES:
        assert f"<dt>{name}</dt><dd>{escape(line)}</dd>" in body
    assert "Use these standing orders" in body
    # The host's seat takes them in one click.
    response = alice_client.post(url + "suggested-orders")
    assert response.status_code == 302
    host_orders = game.seats.get(user=alice).standing_orders
    assert standing_orders.clean(host_orders) == standing_orders.with_suggested({})
    body = alice_client.get(url).content.decode()
    assert "Your seat uses them." in body and "Use these standing orders" not in body
    # A player joining finds them pre-filled on the join form.
    guest = Client()
    guest.force_login(bob)
    body = guest.get(url).content.decode()
    assert 'name="suggested_orders" value="1" id="join-suggested" checked' in body
    guest.post(url + "join", {"suggested_orders": "1"})
    assert standing_orders.uses_suggested(game.seats.get(user=bob).standing_orders)


def test_a_quick_game_suggests_nothing_and_joins_with_the_defaults(
    alice_client: Client, alice: User, bob: User
) -> None:
    game = services.create_game(host=alice, max_seats=3, turn_seconds=600)
    url = f"/games/{game.public_id}/"
    assert "Suggested for a days-long game" not in alice_client.get(url).content.decode()
    guest = Client()
    guest.force_login(bob)
    body = guest.get(url).content.decode()
    assert "suggested_orders" not in body
    guest.post(url + "join")
    seat = game.seats.get(user=bob)
    # The default still claims rent; nothing else is set.
    assert seat.standing_orders == {}
    assert standing_orders.clean({}) == standing_orders.DEFAULTS
    assert standing_orders.DEFAULTS["claim_rent"] is True
