"""The one write path: locking, versions, refusals and whole games."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import engine, services
from games.models import Deadline, Game, GameEvent, Seat
from tests.games.conftest import bots_play_until_seat_zero_acts, writes_after_the_lock

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_bot_tasks(no_bot_tasks: mock.Mock) -> mock.Mock:
    return no_bot_tasks


def turn_user(game: Game) -> User:
    state = engine.from_dict(game.state)
    return game.seats.get(number=state.turn).user


def test_create_game_seats_the_host(alice: User) -> None:
    game = services.create_game(host=alice, preset="uk", max_seats=6, turn_seconds=3600)
    assert game.status == Game.Status.LOBBY
    assert list(game.seats.values_list("user__username", flat=True)) == ["alice"]


def test_create_game_rejects_bad_switch_and_too_many_seats(alice: User) -> None:
    with pytest.raises(services.InvalidRequest, match="Unknown switch"):
        services.create_game(host=alice, switches={"teleporters": True})
    with pytest.raises(services.InvalidRequest, match="2 to 6"):
        services.create_game(host=alice, preset="uk", max_seats=8)
    with pytest.raises(services.InvalidRequest, match="1 minute and 3 days"):
        services.create_game(host=alice, turn_seconds=10)
    assert not Game.objects.exists()


def test_join_private_game_needs_invite_token(alice: User, bob: User) -> None:
    game = services.create_game(host=alice, is_public=False)
    with pytest.raises(services.NotAllowed, match="invite"):
        services.join_game(public_id=game.public_id, user=bob)
    services.join_game(public_id=game.public_id, user=bob, invite_token=game.invite_token)
    assert game.seats.count() == 2


def test_join_refuses_full_game_and_second_seat(alice: User, bob: User, charlie: User) -> None:
    game = services.create_game(host=alice, max_seats=2)
    services.join_game(public_id=game.public_id, user=bob)
    with pytest.raises(services.InvalidRequest, match="already have a seat"):
        services.join_game(public_id=game.public_id, user=bob)
    with pytest.raises(services.InvalidRequest, match="full"):
        services.join_game(public_id=game.public_id, user=charlie)


def test_auto_start_when_full(alice: User, bob: User) -> None:
    game = services.create_game(host=alice, max_seats=2, auto_start=True)
    services.join_game(public_id=game.public_id, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.version == 1


def test_only_host_adds_and_removes_bots_and_starts(alice: User, bob: User) -> None:
    game = services.create_game(host=alice, max_seats=4)
    services.join_game(public_id=game.public_id, user=bob)
    with pytest.raises(services.NotAllowed):
        services.add_bot(public_id=game.public_id, user=bob)
    seat = services.add_bot(public_id=game.public_id, user=alice, kind="random")
    with pytest.raises(services.NotAllowed):
        services.remove_bot(public_id=game.public_id, user=bob, seat_number=seat.number)
    with pytest.raises(services.NotAllowed):
        services.start_game(public_id=game.public_id, user=bob)
    services.remove_bot(public_id=game.public_id, user=alice, seat_number=seat.number)
    with pytest.raises(services.InvalidRequest, match="no bot"):
        services.remove_bot(public_id=game.public_id, user=alice, seat_number=0)
    assert game.seats.count() == 2


def test_start_needs_two_players(alice: User) -> None:
    game = services.create_game(host=alice)
    with pytest.raises(services.InvalidRequest, match="two players"):
        services.start_game(public_id=game.public_id, user=alice)


def test_leave_before_start_and_host_passes_on(alice: User, bob: User) -> None:
    game = services.create_game(host=alice)
    services.join_game(public_id=game.public_id, user=bob)
    services.leave_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    assert game.host == bob
    services.leave_game(public_id=game.public_id, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


def test_cannot_leave_or_join_after_start(duel: Game, charlie: User, alice: User) -> None:
    with pytest.raises(services.InvalidRequest, match="already started"):
        services.leave_game(public_id=duel.public_id, user=alice)
    with pytest.raises(services.InvalidRequest, match="already started"):
        services.join_game(public_id=duel.public_id, user=charlie)


def test_start_renumbers_seats_and_records_events(alice: User, bob: User, charlie: User) -> None:
    game = services.create_game(host=alice, max_seats=3)
    services.join_game(public_id=game.public_id, user=bob)
    services.join_game(public_id=game.public_id, user=charlie)
    services.leave_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    assert list(game.seats.values_list("number", "user__username")) == [
        (0, "alice"),
        (1, "charlie"),
    ]
    assert game.state["names"] == ["alice", "charlie"]
    kinds = list(game.events.values_list("kind", flat=True))
    assert kinds[0] == "start" and "first_player" in kinds


def test_a_start_writes_the_game_seats_events_and_deadlines_at_one_version(
    alice: User, bob: User, charlie: User
) -> None:
    game = services.create_game(host=alice, max_seats=4)
    services.join_game(public_id=game.public_id, user=bob)
    services.join_game(public_id=game.public_id, user=charlie)
    services.add_bot(public_id=game.public_id, user=alice, kind="random")
    services.leave_game(public_id=game.public_id, user=bob)  # a gap at seat 1
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version == 1 and game.started_at
    assert list(game.seats.values_list("number", "status")) == [
        (n, Seat.Status.PLAYING) for n in range(3)
    ]
    state = engine.from_dict(game.state)
    assert state.names == [s.name for s in game.seats.order_by("number")]
    events = list(game.events.order_by("seq", "index"))
    assert [(e.seq, e.index) for e in events] == [(1, i) for i in range(len(events))]
    assert (events[0].kind, events[0].payload) == ("start", {"commitment": game.commitment})
    assert "first_player" in [e.kind for e in events[1:]]
    rows = list(Deadline.objects.filter(game=game))
    assert rows and all(d.version == 1 for d in rows)
    assert {(d.player, d.kind) for d in rows} == {
        (p.player, p.kind) for p in engine.pending_decisions(state)
    }


@pytest.mark.skipif(not ON_POSTGRES, reason="the lock reads in one round trip on PostgreSQL only")
def test_a_start_reads_only_with_its_lock(alice: User, bob: User, charlie: User) -> None:
    game = services.create_game(host=alice, max_seats=3)
    services.join_game(public_id=game.public_id, user=bob)
    services.join_game(public_id=game.public_id, user=charlie)
    services.leave_game(public_id=game.public_id, user=bob)  # renumbering too
    with CaptureQueriesContext(connection) as queries:
        services.start_game(public_id=game.public_id, user=alice)
    # As a move: the seats (renumbered), the game row, its events and its
    # deadline rows, nothing read back.
    writes_after_the_lock(queries)
    assert Game.objects.get(pk=game.pk).version == 1


def test_submit_action_applies_and_bumps_version(duel: Game) -> None:
    user = turn_user(duel)
    events = services.submit_action(
        public_id=duel.public_id, user=user, action={"kind": "roll"}, expected_version=1
    )
    assert any(ev.kind == "dice" for ev in events)
    duel.refresh_from_db()
    assert duel.version == 2
    stored = list(duel.events.filter(seq=2).values_list("kind", flat=True))
    assert stored[0] == "action" and "dice" in stored


def test_double_submit_acts_once(duel: Game) -> None:
    user = turn_user(duel)
    services.submit_action(
        public_id=duel.public_id, user=user, action={"kind": "roll"}, expected_version=1
    )
    with pytest.raises(services.VersionConflict) as conflict:
        services.submit_action(
            public_id=duel.public_id, user=user, action={"kind": "roll"}, expected_version=1
        )
    assert conflict.value.game.version == 2
    duel.refresh_from_db()
    assert duel.version == 2
    assert duel.events.filter(kind="action").count() == 1


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other_game_player"])
def test_refuses_people_without_a_seat(duel: Game, charlie: User, who: str) -> None:
    from django.contrib.auth.models import AnonymousUser

    if who == "anonymous":
        user = AnonymousUser()
    elif who == "stranger":
        user = charlie
    else:
        other = services.create_game(host=charlie)
        user = other.host
    before = duel.state
    with pytest.raises(services.NotAllowed):
        services.submit_action(
            public_id=duel.public_id, user=user, action={"kind": "roll"}, expected_version=1
        )
    duel.refresh_from_db()
    assert duel.state == before and duel.version == 1


def test_refuses_acting_out_of_turn_with_a_clear_message(duel: Game) -> None:
    state = engine.from_dict(duel.state)
    waiting = duel.seats.exclude(number=state.turn).get().user
    with pytest.raises(services.IllegalMove) as refused:
        services.submit_action(
            public_id=duel.public_id, user=waiting, action={"kind": "roll"}, expected_version=1
        )
    assert refused.value.message
    duel.refresh_from_db()
    assert duel.version == 1


def test_seat_cannot_act_as_another_player(duel: Game) -> None:
    state = engine.from_dict(duel.state)
    waiting_seat = duel.seats.exclude(number=state.turn).get()
    # The posted player number is ignored: the seat always acts as itself.
    with pytest.raises(services.IllegalMove):
        services.submit_action(
            public_id=duel.public_id,
            user=waiting_seat.user,
            action={"kind": "roll", "player": state.turn},
            expected_version=1,
        )


@pytest.mark.parametrize(
    "payload", [None, "roll", {"kind": "teleport"}, {"kind": "bid", "amount": "lots"}]
)
def test_rejects_malformed_actions(duel: Game, payload: object) -> None:
    with pytest.raises(services.InvalidRequest):
        services.submit_action(
            public_id=duel.public_id, user=turn_user(duel), action=payload, expected_version=1
        )
    duel.refresh_from_db()
    assert duel.version == 1


def test_unknown_game_is_not_found(alice: User) -> None:
    with pytest.raises(services.GameNotFound):
        services.submit_action(
            public_id="nope", user=alice, action={"kind": "roll"}, expected_version=0
        )


def test_stale_bot_task_does_nothing(alice: User) -> None:
    game = services.create_seated_game(
        humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=0
    )
    before = game.version  # beyond the start's if an instant bot opened
    assert services.play_bot_move(game.pk, game.version + 5) is False
    game.refresh_from_db()
    assert game.version == before


def test_bot_actions_are_scheduled_only_after_commit(
    no_bot_tasks: mock.Mock, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
        no_bot_tasks.assert_not_called()
    for callback in callbacks:
        callback()
    no_bot_tasks.assert_called_once()
    assert no_bot_tasks.call_args.args[:2] == (game.pk, game.version)


@pytest.mark.slow  # 9 s of make test's ten minutes; the engine's own long runs stay there
def test_four_bot_game_plays_to_the_end_and_replays_exactly() -> None:
    game = services.create_seated_game(
        humans=[], bots=["heuristic"] * 4, start=True, bot_delay_ms=0
    )
    for _ in range(6_000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert services.play_bot_move(game.pk, game.version)
        game.refresh_from_db()
        assert engine.check_invariants(engine.from_dict(game.state)) == []
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    seats = list(game.seats.order_by("final_rank"))
    assert [s.final_rank for s in seats] == [1, 2, 3, 4]
    assert seats[0].status == Seat.Status.WINNER
    assert seats[0].final_net_worth > 0

    # Replaying the stored actions from the secret reproduces the final state.
    actions = [
        engine.action_from_dict(e.payload)
        for e in GameEvent.objects.filter(game=game, kind="action").order_by("seq")
    ]
    rules = engine.ruleset(game.preset, **game.switches)  # with the bots' turn limit
    state = engine.new_game(rules, game.state["names"], 0, secret=game.secret)
    for action in actions:
        state, _ = engine.apply(state, action)
    assert engine.to_dict(state) == game.state


def test_a_bot_counters_a_low_trade_offer_and_the_log_says_so(alice: User, edit_state: Any) -> None:
    game = services.create_seated_game(
        humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=0
    )

    def deal(s: engine.State) -> engine.State:
        return engine.setup(
            s,
            owners={16: 0, 18: 0, 19: 1},  # alice: two of the orange group; the bot: the third
            turn=0,
            phase=engine.P_END,  # alice has moved: the bot is not to roll
        )

    edit_state(game, deal)
    game.refresh_from_db()
    offer = {"kind": "propose_trade", "target": 1, "terms": {"take_props": [19], "give_cash": 200}}
    services.submit_action(
        public_id=game.public_id, user=alice, action=offer, expected_version=game.version
    )
    game.refresh_from_db()  # an instant bot answers within alice's move
    ((_, frm, to, terms),) = engine.offers(engine.from_dict(game.state))
    assert (frm, to) == (1, 0)
    assert terms == engine.Terms(give_props=(19,), take_cash=480)
    kinds = list(game.events.order_by("-seq", "-index").values_list("kind", flat=True)[:2])
    assert kinds == ["trade_proposed", "trade_rejected"]


def test_paced_bots_leave_their_answer_to_their_due_row(alice: User, no_bot_tasks: Any) -> None:
    game = services.create_seated_game(
        humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=1000
    )
    _play_until_the_bot_is_due(game, alice)
    game.refresh_from_db()
    assert game.auto_move_at is not None
    assert engine.next_actor(engine.from_dict(game.state)) == 1


def test_instant_bots_answer_within_the_players_move(alice: User, no_bot_tasks: Any) -> None:
    game = services.create_seated_game(
        humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=0
    )
    before = _play_until_the_bot_is_due(game, alice)
    game.refresh_from_db()
    # The bot's whole turn came with alice's last move, each a version of its own.
    assert game.auto_move_at is None and game.version > before + 1
    assert engine.next_actor(engine.from_dict(game.state)) == 0
    # Her next decision arose in the bot's move within her own write: whether
    # she is still at the game is looked at a little later, not now.
    mine = Deadline.objects.filter(game=game, player=0)
    assert mine.exists() and not mine.filter(notice_at__lte=timezone.now()).exists()
    assert not mine.filter(notice_at=None).exists()
    seqs = set(game.events.filter(seq__gt=before).values_list("seq", flat=True))
    assert seqs == set(range(before + 1, game.version + 1))


def test_instant_bots_alone_move_a_version_per_task() -> None:
    game = services.create_seated_game(
        humans=[], bots=["heuristic"] * 2, start=True, bot_delay_ms=0
    )
    for _ in range(10):
        game.refresh_from_db()
        assert services.play_bot_move(game.pk, game.version)
        assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_a_timeout_that_hands_the_last_persons_seat_to_a_bot_leaves_the_rest_to_tasks(
    alice: User, no_bot_tasks: Any
) -> None:
    # Before, the instant bots went on answering each other within the
    # timeout's write, and alice came back to a game played out without her.
    game = services.create_seated_game(
        humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=0
    )
    later = timezone.now() + timedelta(days=3)
    for _ in range(60):
        game.refresh_from_db()
        if services.play_bot_move(game.pk, game.version):
            continue
        before = game.version
        assert services.expire_decision(game.pk, before, now=later)
        game.refresh_from_db()
        if game.seats.get(number=0).taken_over:
            break
    else:
        raise AssertionError("no bot took alice's seat over")
    assert game.version == before + 1
    assert game.status == Game.Status.ACTIVE and game.auto_move_at is not None
    assert services.play_bot_move(game.pk, game.version)
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def _play_until_the_bot_is_due(game: Game, alice: User) -> int:
    """Alice (seat 0) plays her turn; returns the version before her last move."""
    bots_play_until_seat_zero_acts(game)
    for _ in range(20):
        game.refresh_from_db()
        state = engine.from_dict(game.state)
        legal = engine.legal_actions(state, 0)
        action = next((a for a in legal if a.kind in ("roll", "buy", "end_turn")), legal[0])
        before = game.version
        services.submit_action(
            public_id=game.public_id, user=alice, action=action.to_dict(), expected_version=before
        )
        if action.kind == "end_turn":
            return before
    raise AssertionError("alice never ended her turn")
