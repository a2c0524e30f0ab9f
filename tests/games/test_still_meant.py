"""An action posted against an older version is applied when it still means
the same (a pass while a bot raised, a bid still above the high bid, ending
the turn), and refused as stale otherwise (a bid no longer above it, a
build, a second submit of the same move)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections
from django.test import Client

from accounts.models import User
from games import engine, services
from games.models import Game, GameEvent
from tests.api.conftest import api_for

ALICE, BOB, BOT = 0, 1, 2


@pytest.fixture
def table(alice: User, bob: User, no_bot_tasks: Any) -> Game:
    """Alice, Bob and a site bot that moves a second apart (its moves are
    played here, by ``bot_moves``)."""
    return services.create_seated_game(humans=[alice, bob], bots=["heuristic"], start=True)


def act(game: Game, user: User, kind: str, version: int | None = None, **params: Any) -> None:
    """``user`` posts ``kind`` against ``version`` (the current one if None)."""
    game.refresh_from_db()
    services.submit_action(
        public_id=game.public_id,
        user=user,
        action={"kind": kind, **params},
        expected_version=game.version if version is None else version,
    )


def state_of(game: Game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


class Raiser:
    """The site bot's choice in an auction: 40 over the high bid."""

    def act(self, state: engine.State, player: int) -> engine.Action:
        assert state.auction is not None
        return engine.Action(engine.BID, player, amount=state.auction[2] + 40)


def bot_raises(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's move, through the path a bot task takes."""
    monkeypatch.setattr(engine, "make_bot", lambda kind, rng=None: Raiser())
    game.refresh_from_db()
    assert services.play_bot_move(game.pk, game.version)


def auction_of_baltic(game: Game, alice: User, edit_state: Callable[..., Any]) -> int:
    """Alice lands on Baltic Avenue and declines it: all three may bid.
    Returns the version the auction opened at."""
    edit_state(game, lambda s: engine.setup(s, turn=ALICE))
    edit_state(game, lambda s: engine.force_dice(s, (1, 2)))
    act(game, alice, engine.ROLL)
    act(game, alice, engine.DECLINE)
    assert state_of(game).auction is not None
    return game.version


def passes(game: Game, player: int) -> int:
    return sum(
        1
        for payload in GameEvent.objects.filter(game=game, kind="action").values_list(
            "payload", flat=True
        )
        if payload == {"kind": engine.PASS_BID, "player": player}
    )


def test_applies_a_pass_posted_against_the_version_before_a_bots_raise(
    table: Game, alice: User, edit_state: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = auction_of_baltic(table, alice, edit_state)
    bot_raises(table, monkeypatch)
    assert state_of(table).auction[2:4] == [40, BOT]  # the high bid, its bidder

    act(table, alice, engine.PASS_BID, version=opened)

    auction = state_of(table).auction
    assert table.version == opened + 2
    assert auction is not None and auction[5 + ALICE] == 0  # Alice is out
    assert auction[2:4] == [40, BOT]  # and the raise stands
    assert passes(table, ALICE) == 1


def test_a_second_submit_of_the_same_pass_is_not_applied_again(
    table: Game, alice: User, edit_state: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = auction_of_baltic(table, alice, edit_state)
    bot_raises(table, monkeypatch)
    act(table, alice, engine.PASS_BID, version=opened)
    with pytest.raises(services.VersionConflict):
        act(table, alice, engine.PASS_BID, version=opened)
    assert passes(table, ALICE) == 1
    assert table.version == opened + 2


def test_refuses_a_bid_no_longer_above_the_high_bid_and_applies_one_that_is(
    table: Game, alice: User, edit_state: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = auction_of_baltic(table, alice, edit_state)
    bot_raises(table, monkeypatch)  # to 40

    with pytest.raises(services.VersionConflict):
        act(table, alice, engine.BID, version=opened, amount=40)
    assert state_of(table).auction[2:4] == [40, BOT]
    assert table.version == opened + 1

    act(table, alice, engine.BID, version=opened, amount=41)
    assert state_of(table).auction[2:4] == [41, ALICE]


def test_refuses_a_pass_meant_for_an_auction_that_has_ended(
    table: Game,
    alice: User,
    bob: User,
    edit_state: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice, the high bidder, posts a pass (not hers to make then); that
    auction ends and the bot's decline opens another, with no move of
    hers: her pass is not taken as one in the new auction."""
    edit_state(table, lambda s: engine.setup(s, turn=BOB))
    edit_state(table, lambda s: engine.force_dice(s, (1, 2), (2, 4)))
    act(table, bob, engine.ROLL)
    act(table, bob, engine.DECLINE)  # Baltic Avenue to auction
    act(table, alice, engine.BID, amount=10)
    stale = state_version(table)
    act(table, bob, engine.PASS_BID)
    script = [
        engine.Action(engine.PASS_BID, BOT),  # Alice wins Baltic
        engine.Action(engine.ROLL, BOT),  # after Bob's turn, onto Oriental Avenue
        engine.Action(engine.DECLINE, BOT),  # which goes to auction
    ]
    monkeypatch.setattr(engine, "make_bot", lambda kind, rng=None: Scripted(script))
    assert services.play_bot_move(table.pk, state_version(table))
    assert state_of(table).owner[3] == ALICE
    act(table, bob, engine.END_TURN)
    assert services.play_bot_move(table.pk, state_version(table))
    assert services.play_bot_move(table.pk, state_version(table))
    assert engine.is_legal(state_of(table), engine.Action(engine.PASS_BID, ALICE))

    with pytest.raises(services.VersionConflict):
        act(table, alice, engine.PASS_BID, version=stale)
    assert state_of(table).auction[5 + ALICE] == 1  # still in the new auction


def state_version(game: Game) -> int:
    game.refresh_from_db()
    return game.version


class Scripted:
    """A site bot playing the moves given, in order."""

    def __init__(self, moves: list[engine.Action]) -> None:
        self.moves = moves

    def act(self, state: engine.State, player: int) -> engine.Action:
        return self.moves.pop(0)


def test_applies_an_end_of_turn_posted_before_a_trade_offer_to_the_player(
    table: Game, alice: User, bob: User, edit_state: Callable[..., Any]
) -> None:
    edit_state(table, lambda s: engine.setup(s, turn=ALICE, owners={1: ALICE, 6: BOB}))
    edit_state(table, lambda s: engine.force_dice(s, (1, 2)))
    act(table, alice, engine.ROLL)
    act(table, alice, engine.BUY)
    ending = state_version(table)
    offer = {"give_props": [6], "take_cash": 100}
    act(table, bob, engine.PROPOSE_TRADE, target=ALICE, terms=offer)

    act(table, alice, engine.END_TURN, version=ending)
    assert state_of(table).turn != ALICE
    assert len(engine.offers(state_of(table))) == 1  # the offer is still open


def test_refuses_a_build_posted_against_an_older_version(
    table: Game, alice: User, bob: User, edit_state: Callable[..., Any]
) -> None:
    """A build spends cash on the houses left: what it costs and what it is
    worth are the position's, so it is made only in the position it was
    chosen in, like a roll or a purchase."""
    edit_state(table, lambda s: engine.setup(s, turn=BOB, owners={1: ALICE, 3: ALICE}))
    stale = state_version(table)
    act(table, bob, engine.ROLL)
    build = engine.Action(engine.BUILD, ALICE, square=1)
    assert engine.is_legal(state_of(table), build)  # it would be legal now

    with pytest.raises(services.VersionConflict):
        act(table, alice, engine.BUILD, version=stale, square=1)
    assert state_of(table).bld[1] == 0
    act(table, alice, engine.BUILD, square=1)  # against the current version it is made
    assert state_of(table).bld[1] == 1


def test_refuses_an_action_from_a_version_the_game_has_not_reached(
    table: Game, alice: User, edit_state: Callable[..., Any]
) -> None:
    opened = auction_of_baltic(table, alice, edit_state)
    with pytest.raises(services.VersionConflict):
        act(table, alice, engine.PASS_BID, version=opened + 1)
    assert passes(table, ALICE) == 0


@pytest.mark.parametrize("channel", ["page", "api"])
def test_the_page_and_the_api_apply_a_stale_pass_once_and_refuse_a_stale_roll(
    channel: str,
    table: Game,
    alice: User,
    edit_state: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened = auction_of_baltic(table, alice, edit_state)
    bot_raises(table, monkeypatch)
    if channel == "page":
        client = Client()
        client.force_login(alice)

        def post(action: dict[str, Any], version: int) -> tuple[int, str]:
            answer = client.post(
                f"/games/{table.public_id}/act",
                {**action, "expected_version": version},
                HTTP_HX_REQUEST="true",
            )
            return answer.status_code, answer.content.decode()
    else:
        api = api_for(alice)

        def post(action: dict[str, Any], version: int) -> tuple[int, str]:
            answer = api.post(
                f"/games/{table.public_id}/actions", {"action": action, "expected_version": version}
            )
            return answer.status_code, answer.content.decode()

    assert post({"kind": engine.PASS_BID}, opened)[0] == 200
    assert passes(table, ALICE) == 1
    status, body = post({"kind": engine.PASS_BID}, opened)  # the same pass again
    assert status == 409 and "moved on before your action arrived" in body
    assert passes(table, ALICE) == 1
    status, body = post({"kind": engine.ROLL}, opened)
    assert status == 409 and "moved on before your action arrived" in body


@pytest.mark.django_db(transaction=True)
def test_the_same_stale_pass_sent_twice_at_once_applies_once(
    no_bot_tasks: Any, edit_state: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two copies race for the lock after the bot's raise: the first is
    applied as still meant, the second then sees the seat's own pass."""
    alice, bob = (
        User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-123")
        for name in ("alice", "bob")
    )
    game = services.create_seated_game(humans=[alice, bob], bots=["heuristic"], start=True)
    opened = auction_of_baltic(game, alice, edit_state)
    bot_raises(game, monkeypatch)
    barrier = threading.Barrier(2)
    outcomes: list[Any] = [None, None]

    def submit(index: int) -> None:
        try:
            barrier.wait()
            outcomes[index] = services.submit_action(
                public_id=game.public_id,
                user=alice,
                action={"kind": engine.PASS_BID},
                expected_version=opened,
            )
        except Exception as exc:  # the loser's error is the result under test
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    applied = [o for o in outcomes if isinstance(o, list)]
    refused = [o for o in outcomes if isinstance(o, services.VersionConflict)]
    assert len(applied) == 1 and len(refused) == 1, outcomes
    assert passes(game, ALICE) == 1
    assert state_version(game) == opened + 2
