"""Playing: every change to a running game goes through ``_apply`` here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games import decisions, engine
from games.models import Game, GameEvent, Seat
from games.ranking import final_ranking
from games.services.clocks import charge_time_bank, count_own_move, sync_deadlines
from games.services.errors import (
    GameNotFound,
    IllegalMove,
    InvalidRequest,
    NotAllowed,
    StateConflict,
)
from games.services.locking import access_seat, check_version, check_version_or_meaning
from games.services.subscribers import announce
from games.services.write import Write, game_transaction, lock
from games.standing_orders import describe as describe_order


def load_state(game: Game) -> engine.State:
    if game.state is None:
        raise StateConflict("This game has not started.")
    return engine.from_dict(game.state)


def check_action(payload: Any, player: int) -> engine.Action:
    """Parse a submitted action; the seat always acts as itself."""
    if not isinstance(payload, dict):
        raise InvalidRequest("An action must be an object with a 'kind'.")
    try:
        action = engine.action_from_dict({**payload, "player": player})
    except engine.EngineError as exc:
        raise InvalidRequest(str(exc)) from None
    return action


def _lock_for_player(public_id: str, user: Any) -> tuple[Write, Seat]:
    """Lock the game and check that ``user`` plays in it (the caller checks
    the version). The seats (the player's among them) and deadline rows come
    with the lock."""
    w = lock(public_id=public_id)
    seat = access_seat(w.seats, user)
    if w.game.status != Game.Status.ACTIVE:
        raise StateConflict("This game is not in play.")
    if seat.status != Seat.Status.PLAYING:
        raise NotAllowed("You are no longer playing in this game.")
    return w, seat


def submit_action(
    *, public_id: str, user: Any, action: Any, expected_version: int | None
) -> list[engine.Event]:
    """Apply one player's action as one transaction; return its events."""
    return play_action(
        public_id=public_id, user=user, action=action, expected_version=expected_version
    ).events


@dataclass(frozen=True)
class Played:
    """What a player's action left: its events, and the game as it now is
    (after any standing orders it set off), for an answer that reads
    nothing back."""

    events: list[engine.Event]
    state: engine.State
    version: int
    seat: Seat


def play_action(
    *,
    public_id: str,
    user: Any,
    action: Any,
    expected_version: int | None,
    savepoint: bool = True,
) -> Played:
    """``submit_action``, returning the ``Played`` outcome. ``savepoint``:
    as for ``game_transaction`` (False for a caller whose own transaction
    is the action's, and is rolled back whole if this fails)."""
    with game_transaction(savepoint=savepoint):
        w, seat = _lock_for_player(public_id, user)
        parsed = check_action(action, seat.number)
        # Posted against an older version, it may still mean the same now
        # (a pass while a bot raised): judged against the locked state.
        state = load_state(w.game)
        check_version_or_meaning(w.game, expected_version, state, parsed)
        count_own_move(w, seat)
        w.mover = seat.number
        events, state = _apply(w, parsed, actor=seat.number, state=state, last_write=True)
        return Played(events, state, w.game.version, seat)


def resign(*, public_id: str, user: Any, expected_version: int | None) -> list[engine.Event]:
    with game_transaction():
        w, seat = _lock_for_player(public_id, user)
        check_version(w.game, expected_version)
        # Marked first, so that the move's announcement shows the seat as resigned.
        seat.status = Seat.Status.RESIGNED
        seat.save(update_fields=["status"])
        w.mover = seat.number
        return _apply(w, engine.Action(engine.RESIGN, seat.number), actor=seat.number)[0]


def apply_system_action(
    w: Write,
    action: engine.Action,
    *,
    note: dict[str, Any] | None = None,
    actor: int | None = None,
    state: engine.State | None = None,
) -> list[engine.Event]:
    """For timers and bots: the caller holds the lock and checked the version.
    ``note`` is logged with the move (e.g. why the timer acted). ``state``,
    if the caller has parsed it, is the game's state (not parsed again)."""
    actor = action.player if actor is None else actor
    return _apply(w, action, actor=actor, note=note, state=state)[0]


# Standing orders answering each other (two auto-bidders) stop after this
# many moves in one transaction; the rest waits for the next move or timer.
MAX_STANDING_ORDER_MOVES = 400


def _apply(
    w: Write,
    action: engine.Action,
    *,
    actor: int,
    note: dict[str, Any] | None = None,
    state: engine.State | None = None,
    last_write: bool = False,
) -> tuple[list[engine.Event], engine.State]:
    """Apply the action, then any standing orders it brings into play and
    the answers of instant site bots, each as its own version with its own
    events; announce once, for commit. Returns the action's events and the
    state the game was left in.
    ``last_write``: the caller's transaction writes nothing more to the game."""
    # The chain's versions are written once at its end (``Write.write_behind``).
    with w.write_behind():
        new_state, events = _apply_one(w, action, actor=actor, note=note, state=state)
        new_state = _fire_standing_orders(w, new_state)
        new_state = answer_instant_bots(w, new_state)
    announce(w.committed(new_state, last_write=last_write))
    return events, new_state


# Instant bots (``bot_delay_ms`` 0) answering each other (an auction among
# bots) stop after this many moves in one transaction; their due row
# (``auto_move_at``) carries on from there.
MAX_INSTANT_BOT_MOVES = 200


def answer_instant_bots(w: Write, state: engine.State) -> engine.State:
    """Site bots at the instant pace answer within the move that handed
    them a decision, as standing orders do: a player (or an API client)
    gets their own next decision with their move's answer, and nothing is
    left to a task. Bots that pause between moves are left to their due row."""
    if w.game.bot_speed != "instant":
        return state
    for _ in range(MAX_INSTANT_BOT_MOVES):
        if not people_playing(w):
            # Bots alone (a person's seat taken over, say) move a version
            # per task, as in play_bot: otherwise the timeout that took the
            # seat over would play the whole game out before its owner
            # could come back.
            break
        bots = bot_seats(w)
        player = _next_bot(state, bots) if bots and not state.finished else None
        if player is None:
            break
        bot = engine.make_bot(bots[player], rng=engine.bot_rng(state, w.game.version))
        state, _ = _apply_one(w, bot.act(state, player), actor=player, note=None, state=state)
        state = _fire_standing_orders(w, state)
    return state


def fire_standing_orders(w: Write) -> bool:
    """Apply the standing orders that answer decisions open now (after a
    player sets their orders). The caller holds the game lock."""
    version = w.game.version
    with w.write_behind():
        state = _fire_standing_orders(w, load_state(w.game))
    if w.game.version == version:
        return False
    announce(w.committed(state))
    return True


def _fire_standing_orders(w: Write, state: engine.State) -> engine.State:
    for _ in range(MAX_STANDING_ORDER_MOVES):
        fired = _standing_order(w, state)
        if fired is None:
            break
        player, order = fired
        text = f"{state.names[player]}: {describe_order(order)} (standing order)."
        note = {"text": text, "source": "standing_order", "player": player}
        seat = w.seat(player)
        if seat is not None:
            seat.decisions_total += 1
            seat.save(update_fields=["decisions_total"])
        state, _ = _apply_one(w, order, actor=player, note=note)
    return state


def _standing_order(w: Write, state: engine.State) -> tuple[int, engine.Action] | None:
    if state.finished:
        return None
    orders = [(s.number, s.standing_orders) for s in w.seats if plays_themself(s)]
    for player, order in orders:
        action = decisions.standing_action(state, player, order)
        if action is not None:
            return player, action
    return None


def _apply_one(
    w: Write,
    action: engine.Action,
    *,
    actor: int,
    note: dict[str, Any] | None,
    state: engine.State | None = None,
) -> tuple[engine.State, list[engine.Event]]:
    game = w.game
    if state is None:
        state = load_state(game)
    # A sealed bid's amount (even whether it is a pass) is its bidder's
    # until the auction closes: the action and the note that tells why the
    # server acted are written for that seat only.
    hidden = action.player if engine.is_sealed_bid(state, action) else None
    try:
        new_state, events = engine.apply(state, action)
    except engine.IllegalAction as exc:
        raise IllegalMove(str(exc)) from None
    game.state = engine.to_dict(new_state)
    game.version += 1
    fields = ["state", "version", "updated_at", "auto_move_at"]
    if new_state.finished:
        _finish(w, new_state)
        fields += ["status", "finished_at", "end_reason"]
    else:
        _mark_bankrupt_seats(w, new_state)
    set_auto_move(w, new_state)
    # The game row, the action, the note saying why the server acted, the
    # engine's events, then the deadline rows (``sync_deadlines``).
    w.save_game(fields)
    rows = [
        GameEvent(
            game=game,
            seq=game.version,
            index=0,
            kind="action",
            payload=action.to_dict(),
            audience_seat=hidden,
        )
    ]
    if note:
        rows.append(
            GameEvent(
                game=game,
                seq=game.version,
                index=1,
                kind="note",
                payload=note,
                audience_seat=hidden,
            )
        )
    first = len(rows)
    rows += [
        GameEvent(game=game, seq=game.version, index=first + i, kind=ev.kind, payload=ev.to_dict())
        for i, ev in enumerate(events)
    ]
    # Announced with the commit: the new log lines are worded from them
    # instead of being read back.
    w.add_events(rows)
    # The deadlines of the new pending decisions are written with the move.
    charge_time_bank(w, actor, action.kind)
    sync_deadlines(w, new_state, actor=actor, action_kind=action.kind)
    return new_state, events


def _mark_bankrupt_seats(w: Write, state: engine.State) -> None:
    out = {p for p in range(state.n) if not state.alive[p]}
    for seat in w.seats:
        if seat.number in out and seat.status == Seat.Status.PLAYING:
            seat.status = Seat.Status.BANKRUPT
            seat.save(update_fields=["status"])


def _finish(w: Write, state: engine.State) -> None:
    game = w.game
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.end_reason = state.end_reason
    w.finished = True
    for rank, player, worth in final_ranking(state):
        seat = w.seat(player)
        if seat is None:
            continue
        seat.final_rank = rank
        seat.final_net_worth = worth
        if rank == 1:
            seat.status = Seat.Status.WINNER
        elif seat.status == Seat.Status.PLAYING:
            seat.status = Seat.Status.BANKRUPT if not state.alive[player] else Seat.Status.FINISHED
        seat.save(update_fields=["final_rank", "final_net_worth", "status"])


# --- bots ---------------------------------------------------------------------


def bot_seats(w: Write) -> dict[int, str]:
    """Bot seats, and human seats a bot took over after repeated timeouts."""
    return {
        s.number: s.bot_kind or Seat.BotKind.HEURISTIC
        for s in w.seats
        if s.status == Seat.Status.PLAYING and (s.user_id is None or s.taken_over)
    }


def plays_themself(seat: Seat) -> bool:
    """A person in the game, not a bot and not taken over by one."""
    return seat.status == Seat.Status.PLAYING and seat.user_id is not None and not seat.taken_over


def people_playing(w: Write) -> bool:
    return any(plays_themself(s) for s in w.seats)


def bots_due(w: Write, state: engine.State) -> bool:
    if state.finished:
        return False
    bots = bot_seats(w)
    return bool(bots) and any(p.player in bots for p in engine.pending_decisions(state))


def set_auto_move(w: Write, state: engine.State, now: datetime | None = None) -> None:
    """Keep ``game.auto_move_at`` (the due row of the next bot move) true to
    ``state``; the caller saves the field with the version."""
    game = w.game
    if bots_due(w, state):
        now = now or timezone.now()
        game.auto_move_at = now + timedelta(milliseconds=game.bot_delay_ms)
    else:
        game.auto_move_at = None


def play_bot_move(game_id: int, expected_version: int) -> bool:
    """One bot decision, if the game is still where the task expected.
    Returns whether a move was made."""
    with game_transaction():
        try:
            # The seats and deadline rows the move needs come with the lock.
            w = lock(game_id)
        except GameNotFound:
            return False
        if w.game.version != expected_version or w.game.status != Game.Status.ACTIVE:
            return False
        return play_bot(w, load_state(w.game))


def play_bot(w: Write, state: engine.State) -> bool:
    """The next bot decision of the locked game; if no bot is to move, its
    due row is cleared so that the sweep stops finding it."""
    game = w.game
    bots = bot_seats(w)
    player = _next_bot(state, bots)
    if player is None:
        if game.auto_move_at is not None:
            game.auto_move_at = None
            game.save(update_fields=["auto_move_at"])
        return False
    # The bot's own choices come from the game's secret too, on a stream of
    # this version's: nobody can tell what it will bid or offer.
    bot = engine.make_bot(bots[player], rng=engine.bot_rng(state, game.version))
    # With people in the game, instant bots answer each other here until a
    # person is to decide; bots alone move a version per task, whatever the
    # pace, so that spectators see each move (answer_instant_bots).
    _apply(w, bot.act(state, player), actor=player, last_write=True)
    return True


def _next_bot(state: engine.State, bots: dict[int, str]) -> int | None:
    actor = engine.next_actor(state)
    if actor in bots:
        return actor
    for pending in engine.pending_decisions(state):
        if pending.player in bots:
            return pending.player
    return None
