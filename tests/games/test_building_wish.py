"""A building shortage window through the services (issue #17): the build
asks the others first, their deadline is short, an answer goes on."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games import decisions, engine, services
from games.decisions import standing_action
from games.models import Game
from tests.engine.helpers import game as new_game

# Seat 0 owns the light blues, seat 1 the browns; seat 0 has every house but
# one on the greens, reds and oranges.
OWNERS = {
    6: 0,
    8: 0,
    9: 0,
    31: 0,
    32: 0,
    34: 0,
    21: 0,
    23: 0,
    24: 0,
    16: 0,
    18: 0,
    19: 0,
    1: 1,
    3: 1,
}
HOUSES = {31: 4, 32: 4, 34: 4, 21: 4, 23: 4, 24: 4, 16: 3, 18: 2, 19: 2}


def scarce(s: engine.State) -> engine.State:
    s = engine.setup(s, owners=OWNERS, buildings=HOUSES, turn=0)
    assert s.bank_houses == 1
    return s


def state_of(game: Game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


def build_on_oriental(game: Game) -> engine.State:
    services.submit_action(
        public_id=game.public_id, user=game.seats.get(number=0).user,
        action={"kind": "build", "square": 6}, expected_version=game.version,
    )  # fmt: skip
    return state_of(game)


@pytest.mark.django_db
def test_the_window_is_pending_with_a_short_deadline_and_no_wish_builds(
    duel: Game, edit_state: Any, no_bot_tasks: Any
) -> None:
    edit_state(duel, scarce)
    s = build_on_oriental(duel)
    assert engine.pending_decisions(s) == [engine.Pending(1, engine.D_WISH, 6)]
    assert "Bank is short of houses" in decisions.describe(s, engine.pending_decisions(s)[0])
    (row,) = duel.deadlines.all()
    assert row.kind == engine.D_WISH and row.player == 1
    short = min(duel.bid_window_seconds, duel.turn_seconds)
    assert row.due_at - row.started_at == timedelta(seconds=short)
    # The deadline's default is no wish.
    assert decisions.timeout_action(s, row.kind, 1, row.ref) == engine.Action(engine.NO_WISH, 1)
    services.submit_action(
        public_id=duel.public_id, user=duel.seats.get(number=1).user,
        action={"kind": "no_wish"}, expected_version=duel.version,
    )  # fmt: skip
    s = state_of(duel)
    assert s.bld[6] == 1 and s.bank_houses == 0 and s.auction is None
    assert [d.kind for d in duel.deadlines.all()] == [engine.D_ROLL]


@pytest.mark.django_db
def test_a_wish_starts_the_auction_of_the_scarce_house(
    duel: Game, edit_state: Any, no_bot_tasks: Any
) -> None:
    edit_state(duel, scarce)
    build_on_oriental(duel)
    services.submit_action(
        public_id=duel.public_id, user=duel.seats.get(number=1).user,
        action={"kind": "declare_wish"}, expected_version=duel.version,
    )  # fmt: skip
    s = state_of(duel)
    au = engine.auction_view(s)
    assert au is not None and au.kind == engine.A_HOUSE and au.still_in == (0, 1)
    assert s.bld[6] == 0
    assert {d.kind for d in duel.deadlines.all()} == {engine.D_BID}


def asked() -> engine.State:
    s = scarce(new_game())
    s, _ = engine.apply(s, engine.Action(engine.BUILD, 0, square=6))
    assert engine.shortage(s) is not None
    return s


def test_standing_orders_answer_the_window_at_once() -> None:
    s = asked()
    assert standing_action(s, 1, {}) is None  # no orders: the player is asked
    assert standing_action(s, 1, {"auction": "pass"}).kind == engine.NO_WISH
    assert standing_action(s, 1, {"auction": "printed"}).kind == engine.NO_WISH
    assert standing_action(s, 1, {"auction": "upto", "auction_max": 0}).kind == engine.NO_WISH
    assert standing_action(s, 1, {"auction": "upto", "auction_max": 80}).kind == (
        engine.DECLARE_WISH
    )
    # An order that cannot be met (no cash to build) answers no.
    poor = engine.setup(s, cash={1: 20})
    assert standing_action(poor, 1, {"auction": "upto", "auction_max": 80}).kind == (engine.NO_WISH)
    assert standing_action(s, 1, {"claim_rent": True}) is None


def test_the_action_panel_offers_both_answers() -> None:
    from games.web.action_forms import panel

    forms = panel(asked(), 1).decision
    assert [f.kind for f in forms] == [engine.DECLARE_WISH, engine.NO_WISH]
    assert "auctioned" in forms[0].note and forms[0].label == "I want a house too"
