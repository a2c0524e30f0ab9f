"""Games with no person playing end at the site's turn limit
(``BOT_GAME_TURN_LIMIT``): from the start, or once the last person has left; a
person still playing is never cut short."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.bot import set_bot_account
from accounts.models import User
from games import engine, services
from games.models import Game, GameEvent, Seat
from games.services.errors import InvalidRequest
from games.web.presenters import end_line
from games.web.replay import load_replay
from live.watch import watch_rows
from ratings.models import Pool, RatingChange
from tests.api.streams import edit

pytestmark = pytest.mark.django_db


def bots_only(**kw: Any) -> Game:
    return services.create_seated_game(
        humans=[], bots=["random", "random"], bot_delay_ms=0, start=True, **kw
    )


def play_bots_to_the_end(game: Game, moves: int = 2000) -> None:
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        assert services.play_bot_move(game.pk, game.version)
    raise AssertionError(f"not over after {moves} bot moves")


def near_the_limit(limit: int, turn: int) -> Any:
    def change(state: engine.State) -> engine.State:
        changed = engine.setup(state, turn=turn, phase=engine.P_END)
        changed.turn_no = limit - 1
        return changed

    return change


def test_a_game_of_site_bots_gets_the_limit_in_its_rules(settings: Any, no_bot_tasks: Any) -> None:
    settings.BOT_GAME_TURN_LIMIT = 300
    game = bots_only()
    assert game.switches == {"turn_limit": 300}
    assert engine.from_dict(game.state).rules.turn_limit == 300
    # The replay and the record rebuild the same rules.
    assert load_replay(game).rules.turn_limit == 300


def test_bot_accounts_are_not_people(
    settings: Any, alice: User, bob: User, no_bot_tasks: Any
) -> None:
    settings.BOT_GAME_TURN_LIMIT = 300
    set_bot_account(alice, True)
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.add_bot(public_id=game.public_id, user=alice)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    assert engine.from_dict(game.state).rules.turn_limit == 300


def test_a_game_with_a_person_has_no_limit_and_plays_on_past_it(
    settings: Any, alice: User, no_bot_tasks: Any
) -> None:
    settings.BOT_GAME_TURN_LIMIT = 10
    # A paced bot: an instant one that drew the first turn would answer
    # within the start, and could leave an auction that the scripted
    # position below does not clear.
    game = services.create_seated_game(
        humans=[alice], bots=["random"], bot_delay_ms=1000, start=True
    )
    assert game.switches == {"turn_limit": 10, "turn_limit_people": 0b01}
    edit(game, near_the_limit(1000, turn=0))
    services.submit_action(
        public_id=game.public_id,
        user=alice,
        action={"kind": "end_turn"},
        expected_version=game.version,
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert engine.from_dict(game.state).turn_no >= 1000


def test_once_the_last_person_resigns_the_bots_left_end_at_the_limit(
    settings: Any, alice: User, no_bot_tasks: Any
) -> None:
    settings.BOT_GAME_TURN_LIMIT = 4
    game = services.create_seated_game(
        humans=[alice], bots=["random", "random"], bot_delay_ms=0, start=True
    )
    assert game.switches["turn_limit_people"] == 0b001
    services.resign(public_id=game.public_id, user=alice, expected_version=game.version)
    play_bots_to_the_end(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == "turn_limit"
    state = engine.from_dict(game.state)
    assert state.turn_no >= 4 and state.alive == [False, True, True]
    assert all(row["game"].pk != game.pk for row in watch_rows())
    verification = engine.verify_record(load_replay(game).record())
    assert verification.ok, verification.checks


@pytest.mark.parametrize("switch", ["turn_limit", "turn_limit_people"])
def test_a_host_cannot_set_the_limit_as_a_house_rule(alice: User, switch: str) -> None:
    with pytest.raises(InvalidRequest, match="not a house rule"):
        services.create_game(host=alice, switches={switch: 5})


def test_zero_turns_the_limit_off(settings: Any, no_bot_tasks: Any) -> None:
    settings.BOT_GAME_TURN_LIMIT = 0
    assert bots_only().switches == {}


def test_a_bot_game_ends_at_the_limit_by_net_worth_and_leaves_the_watch_list(
    settings: Any, client: Client, no_bot_tasks: Any
) -> None:
    settings.BOT_GAME_TURN_LIMIT = 6
    game = bots_only()
    assert any(row["game"].pk == game.pk for row in watch_rows())
    play_bots_to_the_end(game)
    state = engine.from_dict(game.state)
    assert game.status == Game.Status.FINISHED and game.end_reason == "turn_limit"
    assert state.turn_no == 6 and all(state.alive)
    seats = {seat.number: seat for seat in game.seats.all()}
    winner = max(range(2), key=lambda p: (state.values[p], -p))
    assert state.winner == winner and seats[winner].status == Seat.Status.WINNER
    assert seats[winner].final_rank == 1 and seats[1 - winner].final_rank == 2
    assert seats[winner].final_net_worth == state.values[winner]
    assert seats[1 - winner].status == Seat.Status.FINISHED
    # The end is an event with its reason, as every end is.
    kinds = list(GameEvent.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds[-2:] == ["turn_limit", "game_over"]
    over = GameEvent.objects.get(game=game, kind="game_over")
    assert over.payload["reason"] == "turn_limit"
    assert all(row["game"].pk != game.pk for row in watch_rows())
    # The game-over panel says why; the record verifies.
    page = client.get(f"/games/{game.public_id}/").content.decode()
    assert "ended at the turn limit after 6 turns" in page
    assert "the highest net worth wins" in page
    verification = engine.verify_record(load_replay(game).record())
    assert verification.ok, verification.checks


def test_bot_accounts_at_the_limit_are_rated_in_their_pool(
    settings: Any, alice: User, bob: User, no_bot_tasks: Any
) -> None:
    settings.BOT_GAME_TURN_LIMIT = 40
    for user in (alice, bob):
        set_bot_account(user, True)
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    edit(game, near_the_limit(40, turn=0))
    mover = game.seats.get(number=0).user
    services.submit_action(
        public_id=game.public_id,
        user=mover,
        action={"kind": "end_turn"},
        expected_version=game.version,
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == "turn_limit"
    changes = RatingChange.objects.filter(game=game)
    assert {change.pool for change in changes} == {Pool.BOT}
    # Equal net worth (nothing happened): the tie goes to the earlier seat.
    assert {change.user_id: change.rank for change in changes} == {
        game.seats.get(number=0).user_id: 1,
        game.seats.get(number=1).user_id: 2,
    }


@pytest.mark.parametrize(
    ("reason", "says"),
    [
        ("turn_limit", "ended at the turn limit after 12 turns"),
        ("time", "Time ran out: the highest net worth wins."),
        ("first_bankruptcy", "at the first bankruptcy: the highest net worth wins."),
        ("second_bankruptcy", "at the second bankruptcy: the highest net worth wins."),
        ("last_player", "Everyone else went bankrupt or resigned."),
    ],
)
def test_the_game_over_panel_says_why_the_game_ended(reason: str, says: str) -> None:
    state = engine.new_game(engine.ruleset(), ["a", "b"], seed=1)
    state.turn_no, state.end_reason = 12, reason
    assert says in end_line(state)
