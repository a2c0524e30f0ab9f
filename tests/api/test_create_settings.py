"""The create endpoint takes every setting of the lobby's form, checked by
that form, and its schema lists the values the form offers."""

from __future__ import annotations

from django.test import Client

from accounts.models import User
from games.models import Game
from games.web.forms import TURN_TIMER_CHOICES, CreateGameForm
from tests.api.conftest import Api

TIMERS = {
    "time_bank_seconds": 3600,
    "time_bank_increment_seconds": 300,
    "claim_window_seconds": 24 * 3600,
    "bid_window_seconds": 15 * 60,
    "trade_expiry_seconds": 3 * 24 * 3600,
    "takeover_after": 5,
    "time_limit_seconds": 0,
}


def test_create_takes_every_timer_and_option_of_the_page(alice: User, alice_api: Api) -> None:
    answer = alice_api.post(
        "/games",
        {"preset": "us-2003", "seats": 3, "turn_seconds": 900, "public": False,
         "auto_start": True, "rated_with_bots": True, "allow_bot_accounts": True,
         "switches": {"starting_cash": 2000}, **TIMERS},
    )  # fmt: skip
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(public_id=answer.json()["id"])
    for name, value in TIMERS.items():
        assert getattr(game, name) == value, name
    assert (game.max_seats, game.turn_seconds, game.is_public) == (3, 900, False)
    assert game.auto_start and game.rated_with_bots and game.allow_bot_accounts
    assert game.switches == {"starting_cash": 2000}


def test_left_out_timers_take_the_sites_defaults(alice_api: Api) -> None:
    answer = alice_api.post("/games", {"seats": 2})
    game = Game.objects.get(public_id=answer.json()["id"])
    default = Game()
    assert all(getattr(game, name) == getattr(default, name) for name in TIMERS)


def test_values_the_page_does_not_offer_are_refused(alice: User, alice_api: Api) -> None:
    for body in ({"turn_seconds": 61}, {"bid_window_seconds": 1}, {"seats": 9},
                 {"preset": "nonsense"}, {"switches": {"nonsense": 1}}):  # fmt: skip
        answer = alice_api.post("/games", {"seats": 2, **body})
        assert answer.status_code == 422, body
    uk = alice_api.post("/games", {"preset": "uk", "seats": 8})
    assert uk.status_code == 422
    assert "seats" in uk.json()["detail"]
    assert not Game.objects.filter(host=alice).exists()


def test_the_schema_lists_the_forms_values(db: None) -> None:
    body = Client().get("/api/v1/openapi.json").json()["components"]["schemas"]["CreateGameIn"]
    fields = body["properties"]
    assert fields["turn_seconds"]["enum"] == [value for value, _ in TURN_TIMER_CHOICES]
    for name in CreateGameForm.TIMER_FIELDS:
        assert name in fields
        assert fields[name]["description"]


def test_create_takes_the_spectators_win_bar_delay_within_the_pages_bounds(
    alice_api: Api,
) -> None:
    answer = alice_api.post("/games", {"seats": 2, "analysis_delay_moves": 7})
    assert answer.status_code == 201, answer.json()
    assert Game.objects.get(public_id=answer.json()["id"]).analysis_delay_moves == 7
    for wrong in (-1, 51, "soon"):
        refused = alice_api.post("/games", {"seats": 2, "analysis_delay_moves": wrong})
        assert refused.status_code == 422, refused.json()
    assert Game.objects.count() == 1
