"""The length cap through the site (issue #33): a game capped in turns ends
by net worth when the round completes, with the places written to the seats,
the end worded on the game page, the log and the replay, and the record
verified."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import engine, services, wording
from games.models import Game
from games.services import timers
from games.web.presenters import end_line
from games.web.replay import load_replay
from tests.api.streams import edit

pytestmark = pytest.mark.django_db


def last_turn_of_the_round(state: engine.State) -> engine.State:
    # Seat 1 ends its second turn: both have then had two.
    changed = engine.setup(
        state, turn=1, phase=engine.P_END, cash={0: 1200, 1: 1000}, owners={39: 1, 1: 0},
        mortgaged=[1],
    )  # fmt: skip
    changed.played = [2, 1]
    return changed


def test_a_game_capped_in_turns_ends_by_net_worth_and_writes_the_places(
    alice: User, bob: User, no_bot_tasks: Any, client: Client
) -> None:
    game = services.create_seated_game(
        humans=[alice, bob], bots=[], switches={"cap_turns": 2, "cap_days": 30}, start=True
    )
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Length cap: 2 turns each, 30 days" in page
    edit(game, last_turn_of_the_round)
    game.refresh_from_db()
    services.submit_action(
        public_id=game.public_id, user=bob, action={"kind": "end_turn"},
        expected_version=game.version,
    )  # fmt: skip
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == "length_cap"
    seats = {s.number: (s.final_rank, s.final_net_worth) for s in game.seats.all()}
    # Bob: 1000 and Boardwalk (400); Alice: 1200 and Mediterranean mortgaged (60 / 2).
    assert seats == {0: (2, 1230), 1: (1, 1400)}
    state = engine.from_dict(game.state)
    assert end_line(state).startswith("The game reached its length cap: each player had 2 turns.")
    page = client.get(game.get_absolute_url()).content.decode()
    assert "each player has had 2 turns" in page and "length cap was reached" in page


def test_a_game_ended_by_its_days_replays_and_its_record_verifies(
    alice: User, bob: User, no_bot_tasks: Any, client: Client
) -> None:
    # Turns of three days: the cap falls before any player's own deadline.
    game = services.create_seated_game(
        humans=[alice, bob], bots=[], switches={"cap_days": 1}, turn_seconds=3 * 86400, start=True
    )
    cap = game.deadlines.get(kind="length_cap")
    assert timers.expire_decision(game.pk, game.version, now=cap.due_at + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.end_reason == "length_cap" and game.seats.filter(final_rank=1).count() == 1
    replay = client.get(f"{game.get_absolute_url()}replay/").content.decode()
    assert "length cap of 1 day is reached" in replay and "length cap was reached" in replay
    verification = engine.verify_record(load_replay(game).record())
    assert verification.ok, verification.checks


def test_the_game_over_panel_and_the_chip_word_a_cap_in_days() -> None:
    state = engine.new_game(engine.ruleset(cap_days=14), ["a", "b"], seed=1)
    state, _ = engine.apply(state, engine.Action(engine.END_CAP, engine.SYSTEM))
    assert end_line(state) == (
        "The game reached its length cap of 14 days. The highest net worth wins."
    )
    assert wording.length_cap(state.rules) == "Length cap: 14 days"
    assert wording.length_cap(engine.ruleset()) == ""
    assert wording.game_over("length_cap", "a") == "Game over (the length cap was reached): a wins."
