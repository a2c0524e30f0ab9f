"""Pending trades never block the game (issue #17): an unanswered offer
neither stops the turn player nor the next turn, and it expires with its
window, found by the real beat's sweep."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine, services
from games.models import Game, GameEvent
from tests.timers.conftest import due_soon, timeout_notes, wait_for

GIVE_ONE = {"give_cash": 1}


def state_of(game: Game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


def act(game: Game, player: int, **action: Any) -> None:
    services.submit_action(
        public_id=game.public_id, user=game.seats.get(number=player).user, action=action,
        expected_version=game.version,
    )  # fmt: skip
    game.refresh_from_db()


def offers_both_ways(game: Game, edit_state: Any) -> int:
    """Each player offers the other a trade; the turn player will throw a
    plain 10 (Just Visiting)."""
    mover = state_of(game).turn
    other = 1 - mover
    edit_state(game, lambda s: engine.force_dice(s, (4, 6)))
    game.refresh_from_db()
    act(game, other, kind="propose_trade", target=mover, terms=GIVE_ONE)
    act(game, mover, kind="propose_trade", target=other, terms=GIVE_ONE)
    assert len(engine.offers(state_of(game))) == 2
    return mover


@pytest.mark.django_db
def test_a_pending_trade_blocks_neither_the_turn_nor_the_next(
    duel: Game, edit_state: Any, no_bot_tasks: Any
) -> None:
    mover = offers_both_ways(duel, edit_state)
    other = 1 - mover
    windows = {d.pk: d.due_at for d in duel.deadlines.filter(kind=engine.D_TRADE)}
    assert len(windows) == 2
    act(duel, mover, kind="roll")
    assert state_of(duel).phase == engine.P_END
    act(duel, mover, kind="end_turn")
    s = state_of(duel)
    assert s.turn == other and s.phase == engine.P_ROLL
    assert duel.deadlines.filter(player=other, kind=engine.D_ROLL).exists()
    # The offers are still open, on the clocks they got when they were made.
    assert len(engine.offers(s)) == 2
    assert {d.pk: d.due_at for d in duel.deadlines.filter(kind=engine.D_TRADE)} == windows
    # The recipient plays their own turn with an offer unanswered.
    edit_state(duel, lambda s: engine.force_dice(s, (4, 6)))
    duel.refresh_from_db()
    act(duel, other, kind="roll")
    act(duel, other, kind="end_turn")
    assert state_of(duel).turn == mover


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_unanswered_trade_expires_with_its_window(
    timers: None, timed_duel: Game, edit_state: Any
) -> None:
    game = timed_duel
    mover = offers_both_ways(game, edit_state)
    other = 1 - mover
    (offer,) = [o for o in engine.offers(state_of(game)) if o.recipient == mover]
    row = due_soon(game, 1, kind=engine.D_TRADE, player=mover)
    assert row.ref == str(offer.id)
    # Found by the beat's sweep (no ETA task was queued for the moved row).
    wait_for(lambda: offer.id not in [o.id for o in engine.offers(state_of(game))])
    s = state_of(game)
    assert [o.recipient for o in engine.offers(s)] == [other]  # the other offer stays
    (note,) = timeout_notes(game)
    assert note.payload["kind"] == engine.D_TRADE
    assert GameEvent.objects.filter(
        game=game, kind="action", payload__kind="reject_trade", payload__target=offer.id
    ).exists()
    # An expired offer is not a missed turn, and the turn is still the mover's.
    assert game.seats.get(number=mover).timeouts_in_row == 0
    assert s.turn == mover and s.phase == engine.P_ROLL
