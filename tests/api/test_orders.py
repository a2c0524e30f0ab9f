"""Standing orders through the API: the page's form and service."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games import engine
from games.models import Game
from games.standing_orders import DEFAULTS
from tests.api.conftest import Api


def put(api: Api, game: Game, orders: dict[str, Any]) -> Any:
    return api.client.put(
        f"/api/v1/games/{game.public_id}/standing-orders",
        data=orders,
        content_type="application/json",
        headers=api.headers(),
    )


def test_a_player_reads_and_sets_their_orders(duel: Game, bob_api: Api, no_bot_tasks: Any) -> None:
    path = f"/games/{duel.public_id}/standing-orders"
    assert bob_api.get(path).json()["orders"] == DEFAULTS
    orders = {"claim_rent": False, "buy_min_cash_left": 300, "auction": "upto",
              "auction_max": 150, "jail": "pay", "auto_roll": False}  # fmt: skip
    answer = put(bob_api, duel, orders)
    assert answer.status_code == 200
    assert answer.json()["orders"] == orders
    assert bob_api.get(path).json()["orders"] == orders
    duel.refresh_from_db()
    assert duel.seats.get(number=1).standing_orders == orders


def test_orders_the_page_would_refuse_are_refused_alike(
    duel: Game, bob_api: Api, no_bot_tasks: Any
) -> None:
    answer = put(bob_api, duel, {"auction": "upto"})
    assert answer.status_code == 422
    assert answer.json()["detail"] == "Say how high to bid."
    assert put(bob_api, duel, {"jail": "bribe"}).status_code == 422
    duel.refresh_from_db()
    assert duel.seats.get(number=1).standing_orders == {}


def test_an_order_that_answers_an_open_decision_fires_at_once(
    duel: Game, alice_api: Api, bob_api: Api, no_bot_tasks: Any
) -> None:
    before = duel.version
    mover = engine.from_dict(duel.state).turn
    answer = put([alice_api, bob_api][mover], duel, {"auto_roll": True})
    assert answer.status_code == 200
    assert answer.json()["version"] > before
    assert answer.json()["version"] == Game.objects.get(pk=duel.pk).version


def test_a_spectator_has_no_orders(duel: Game, charlie_api: Api, no_bot_tasks: Any) -> None:
    assert charlie_api.get(f"/games/{duel.public_id}/standing-orders").status_code == 403
    assert put(charlie_api, duel, {"auto_roll": True}).status_code == 403


def test_setting_orders_needs_the_play_scope(duel: Game, bob: User, no_bot_tasks: Any) -> None:
    from tests.api.conftest import api_for

    assert put(api_for(bob, "read"), duel, {"auto_roll": True}).status_code == 403
