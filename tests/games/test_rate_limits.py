"""Rate limits on creating, joining, trading and acting: a 429 with
Retry-After, nothing changed, other people unaffected, and the per-address
limit counted across accounts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from common.env import env_rates
from games import engine, services
from games.models import Game, Seat

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_bot_tasks")]

HTMX = {"HTTP_HX_REQUEST": "true"}
CREATE = {"preset": "us-2003", "max_seats": "4", "turn_seconds": "3600", "visibility": "public"}


def limit(settings: Any, scope: str, rates: str) -> None:
    """Tight limits for a test (the defaults are far above what a test posts)."""
    parsed = env_rates("TEST", rates, {"user", "ip"}, environ={})
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, scope: parsed}


def client_for(user: User, ip: str = "127.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=ip)
    client.force_login(user)
    return client


def act(client: Client, game: Game, kind: str, *, htmx: bool = True, **fields: Any) -> Any:
    game.refresh_from_db()
    data = {"kind": kind, "expected_version": game.version, **fields}
    return client.post(f"/games/{game.public_id}/act", data, **(HTMX if htmx else {}))


def assert_limited(response: Any, words: str) -> None:
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600
    assert words in response.content.decode()


@pytest.fixture
def alice_first(duel: Game, edit_state: Any) -> Game:
    def position(s: engine.State) -> engine.State:
        return engine.setup(s, owners={1: 0, 39: 1}, turn=0)  # Mediterranean: Alice; Boardwalk: Bob

    edit_state(duel, position)
    return duel


# --- creating and joining -------------------------------------------------------------


def test_creating_too_many_games_is_refused_and_creates_nothing(
    settings: Any, alice: User, bob: User
) -> None:
    limit(settings, "create", "2/1h/user,10/1h/ip")
    as_alice = client_for(alice)
    for _ in range(2):
        assert as_alice.post("/lobby/create", CREATE).status_code == 302
    response = as_alice.post("/lobby/create", CREATE)
    assert_limited(response, "You have created too many games recently.")
    assert 'id="create-game"' in response.content.decode()  # the lobby, with the message
    assert Game.objects.filter(host=alice).count() == 2
    assert client_for(bob).post("/lobby/create", CREATE).status_code == 302


def test_joining_too_fast_is_refused_and_takes_no_seat(
    settings: Any, alice: User, bob: User, charlie: User
) -> None:
    limit(settings, "join", "1/10m/user,10/10m/ip")
    games = [services.create_game(host=alice) for _ in range(3)]
    as_bob = client_for(bob)
    assert as_bob.post(f"/games/{games[0].public_id}/join").status_code == 302
    response = as_bob.post(f"/games/{games[1].public_id}/join")
    assert_limited(response, "You have joined too many games recently.")
    assert f'href="/games/{games[1].public_id}/"' in response.content.decode()
    assert not games[1].seats.filter(user=bob).exists()
    client_for(charlie).post(f"/games/{games[1].public_id}/join")
    assert games[1].seats.filter(user=charlie).exists()


def test_the_address_limit_counts_every_account_behind_it(
    settings: Any, alice: User, bob: User, charlie: User
) -> None:
    limit(settings, "join", "10/10m/user,2/10m/ip")
    games = [services.create_game(host=alice) for _ in range(3)]
    client_for(bob).post(f"/games/{games[0].public_id}/join")
    client_for(charlie).post(f"/games/{games[0].public_id}/join")
    same_address = client_for(charlie).post(f"/games/{games[1].public_id}/join")
    assert_limited(same_address, "joined too many games")
    assert not games[1].seats.filter(user=charlie).exists()
    client_for(charlie, ip="10.0.0.2").post(f"/games/{games[1].public_id}/join")
    assert games[1].seats.filter(user=charlie).exists()


# --- playing ------------------------------------------------------------------------


def test_acting_too_fast_is_refused_in_the_panel_and_changes_nothing(
    settings: Any, alice_first: Game, alice: User, bob: User
) -> None:
    limit(settings, "action", "1/1m/user,10/1m/ip")
    as_alice = client_for(alice)
    assert act(as_alice, alice_first, engine.ROLL).status_code == 200
    alice_first.refresh_from_db()
    version = alice_first.version
    response = act(as_alice, alice_first, engine.END_TURN)
    assert_limited(response, "You are acting too quickly.")
    assert 'id="actions"' in response.content.decode()  # the panel shows the message
    alice_first.refresh_from_db()
    assert alice_first.version == version
    # Bob has his own allowance: his (illegal) move is judged, not counted out.
    assert act(client_for(bob), alice_first, engine.END_TURN).status_code == 422


def test_acting_too_fast_without_htmx_gets_a_page(
    settings: Any, alice_first: Game, alice: User
) -> None:
    limit(settings, "action", "1/1m/user,10/1m/ip")
    as_alice = client_for(alice)
    act(as_alice, alice_first, engine.ROLL, htmx=False)
    response = act(as_alice, alice_first, engine.END_TURN, htmx=False)
    assert_limited(response, "Nothing was changed.")
    assert "<html" in response.content.decode()


def test_the_action_limit_counts_every_account_behind_an_address(
    settings: Any, alice_first: Game, alice: User, bob: User
) -> None:
    limit(settings, "action", "100/1m/user,2/1m/ip")
    act(client_for(alice), alice_first, engine.ROLL)
    act(client_for(bob), alice_first, engine.END_TURN)
    assert act(client_for(bob), alice_first, engine.END_TURN).status_code == 429
    assert act(client_for(bob, ip="10.0.0.9"), alice_first, engine.END_TURN).status_code == 422


def test_proposing_trades_too_fast_is_refused_and_keeps_the_offer(
    settings: Any, alice_first: Game, alice: User
) -> None:
    limit(settings, "trade", "2/1m/user,10/1m/ip")
    as_alice = client_for(alice)
    offer = {"target": "1", "take_props": "39", "give_cash": "317", "take_cash": ""}
    for _ in range(2):
        assert act(as_alice, alice_first, engine.PROPOSE_TRADE, **offer).status_code == 200
        trade_id = engine.offers(services_state(alice_first))[0].id
        act(as_alice, alice_first, engine.WITHDRAW_TRADE, target=str(trade_id))
    alice_first.refresh_from_db()
    version = alice_first.version
    response = act(as_alice, alice_first, engine.PROPOSE_TRADE, **offer)
    assert_limited(response, "You are proposing trades too quickly.")
    # What she typed is kept.
    assert re.search(r'name="give_cash"[^>]*value="317"', response.content.decode())
    alice_first.refresh_from_db()
    assert alice_first.version == version and not services_state(alice_first).trades
    # Other actions are limited separately.
    assert act(as_alice, alice_first, engine.ROLL).status_code == 200


def services_state(game: Game) -> Any:
    from games import engine

    game.refresh_from_db()
    return engine.from_dict(game.state)


def test_resign_reclaim_and_standing_orders_share_the_action_limit(
    settings: Any, alice_first: Game, alice: User
) -> None:
    limit(settings, "action", "1/1m/user,10/1m/ip")
    as_alice = client_for(alice)
    base = f"/games/{alice_first.public_id}/"
    as_alice.post(base + "reclaim")  # counted: nothing to reclaim
    assert_limited(as_alice.post(base + "reclaim"), "You are acting too quickly.")
    response = as_alice.post(base + "orders", {}, **HTMX)
    assert_limited(response, "You are acting too quickly.")
    response = as_alice.post(base + "resign", {"expected_version": alice_first.version}, **HTMX)
    assert_limited(response, "You are acting too quickly.")
    assert Seat.objects.get(game=alice_first, user=alice).status == Seat.Status.PLAYING


def test_services_are_never_limited(settings: Any, alice_first: Game, alice: User) -> None:
    """Bots and timers act through the services, past every view."""
    limit(settings, "action", "1/1m/user,1/1m/ip")
    as_alice = client_for(alice)
    act(as_alice, alice_first, "no_such_kind")
    assert act(as_alice, alice_first, engine.ROLL).status_code == 429
    alice_first.refresh_from_db()
    version = alice_first.version
    services.submit_action(
        public_id=alice_first.public_id,
        user=alice,
        action={"kind": engine.ROLL},
        expected_version=version,
    )
    alice_first.refresh_from_db()
    assert alice_first.version > version
