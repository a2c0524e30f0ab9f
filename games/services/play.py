"""Playing: every change to a running game goes through ``_apply`` here."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import engine
from games.models import Game, GameEvent, Seat
from games.ranking import final_ranking
from games.services.errors import GameNotFound, IllegalMove, InvalidRequest, NotAllowed
from games.services.hooks import after_commit
from games.services.locking import (
    Statement,
    access_seat,
    check_version,
    insert_statement,
    update_statement,
)
from games.services.timers import (
    charge_time_bank,
    count_own_move,
    forget_seats,
    game_seats,
    lock_game_with_rows,
    sync_deadlines,
)
from games.standing_orders import describe as describe_order
from games.standing_orders import standing_action
from ratings.services import rate_game


def load_state(game: Game) -> engine.State:
    if game.state is None:
        raise InvalidRequest("This game has not started.")
    return engine.from_dict(game.state)


def record_events(game: Game, events: list[engine.Event], first_index: int = 0) -> None:
    GameEvent.objects.bulk_create(
        GameEvent(
            game=game, seq=game.version, index=first_index + i, kind=ev.kind, payload=ev.to_dict()
        )
        for i, ev in enumerate(events)
    )


def check_action(payload: Any, player: int) -> engine.Action:
    """Parse a submitted action; the seat always acts as itself."""
    if not isinstance(payload, dict):
        raise InvalidRequest("An action must be an object with a 'kind'.")
    try:
        action = engine.action_from_dict({**payload, "player": player})
    except engine.EngineError as exc:
        raise InvalidRequest(str(exc)) from None
    return action


def _lock_for_player(public_id: str, user: Any, expected_version: int | None) -> tuple[Game, Seat]:
    """Lock the game and check that ``user`` plays in it at this version. The
    seats (the player's among them) and deadline rows come with the lock."""
    game = lock_game_with_rows(public_id=public_id)
    seat = access_seat(game, user)
    if game.status != Game.Status.ACTIVE:
        raise InvalidRequest("This game is not in play.")
    check_version(game, expected_version)
    if seat.status != Seat.Status.PLAYING:
        raise NotAllowed("You are no longer playing in this game.")
    return game, seat


def submit_action(
    *, public_id: str, user: Any, action: Any, expected_version: int | None
) -> list[engine.Event]:
    """Apply one player's action as one transaction; return its events."""
    with transaction.atomic():
        game, seat = _lock_for_player(public_id, user, expected_version)
        parsed = check_action(action, seat.number)
        # The seat's counters go out with the move's own statements.
        writes: list[Statement] = []
        count_own_move(seat, writes)
        return _apply(game, parsed, actor=seat.number, writes=writes, last_write=True)


def resign(*, public_id: str, user: Any, expected_version: int | None) -> list[engine.Event]:
    with transaction.atomic():
        game, seat = _lock_for_player(public_id, user, expected_version)
        events = _apply(game, engine.Action(engine.RESIGN, seat.number), actor=seat.number)
        Seat.objects.filter(pk=seat.pk).update(status=Seat.Status.RESIGNED)
        seat.status = Seat.Status.RESIGNED  # the kept row, which the broadcast shows
        return events


def apply_system_action(
    game: Game,
    action: engine.Action,
    *,
    note: dict[str, Any] | None = None,
    actor: int | None = None,
    state: engine.State | None = None,
    writes: list[Statement] | None = None,
) -> list[engine.Event]:
    """For timers and bots: the caller holds the lock and checked the version.
    ``note`` is logged with the move (e.g. why the timer acted). ``state``,
    if the caller has parsed it, is the game's state (not parsed again);
    ``writes`` are the caller's statements, sent with the move's own."""
    actor = action.player if actor is None else actor
    return _apply(game, action, actor=actor, note=note, state=state, writes=writes)


# Standing orders answering each other (two auto-bidders) stop after this
# many moves in one transaction; the rest waits for the next move or timer.
MAX_STANDING_ORDER_MOVES = 400


def _apply(
    game: Game,
    action: engine.Action,
    *,
    actor: int,
    note: dict[str, Any] | None = None,
    state: engine.State | None = None,
    writes: list[Statement] | None = None,
    last_write: bool = False,
) -> list[engine.Event]:
    """Apply the action, then any standing orders it brings into play, each
    as its own version with its own events; schedule once, after commit.
    ``last_write``: the caller's transaction writes nothing more after this."""
    new_state, events = _apply_one(game, action, actor=actor, note=note, state=state, writes=writes)
    new_state = _fire_standing_orders(game, new_state)
    after_commit(
        game.pk,
        game.version,
        bots_due=game.auto_move_at is not None,
        state=new_state,
        game=game,
        last_write=last_write,
    )
    return events


def fire_standing_orders(game: Game) -> bool:
    """Apply the standing orders that answer decisions open now (after a
    player sets their orders). The caller holds the game lock."""
    version = game.version
    state = _fire_standing_orders(game, load_state(game))
    if game.version == version:
        return False
    after_commit(
        game.pk, game.version, bots_due=game.auto_move_at is not None, state=state, game=game
    )
    return True


def _fire_standing_orders(game: Game, state: engine.State) -> engine.State:
    for _ in range(MAX_STANDING_ORDER_MOVES):
        fired = _standing_order(game, state)
        if fired is None:
            break
        player, order = fired
        text = f"{state.names[player]}: {describe_order(order)} (standing order)."
        note = {"text": text, "source": "standing_order", "player": player}
        state, _ = _apply_one(game, order, actor=player, note=note)
        game.seats.filter(number=player).update(decisions_total=F("decisions_total") + 1)
    return state


def _standing_order(game: Game, state: engine.State) -> tuple[int, engine.Action] | None:
    if state.finished:
        return None
    # The seats this write already read (``game_seats``), in seat order.
    orders = [
        (s.number, s.standing_orders)
        for s in game_seats(game)
        if s.status == Seat.Status.PLAYING
        and s.user_id is not None
        and not s.taken_over
        and s.standing_orders
    ]
    for player, order in orders:
        action = standing_action(state, player, order)
        if action is not None:
            return player, action
    return None


def _apply_one(
    game: Game,
    action: engine.Action,
    *,
    actor: int,
    note: dict[str, Any] | None,
    state: engine.State | None = None,
    writes: list[Statement] | None = None,
) -> tuple[engine.State, list[engine.Event]]:
    if state is None:
        state = load_state(game)
    try:
        new_state, events = engine.apply(state, action)
    except engine.IllegalAction as exc:
        raise IllegalMove(str(exc)) from None
    game.state = engine.to_dict(new_state)
    game.version += 1
    fields = ["state", "version", "updated_at", "auto_move_at"]
    if new_state.finished:
        _finish(game, new_state)
        fields += ["status", "finished_at", "end_reason"]
    else:
        _mark_bankrupt_seats(game, new_state)
    set_auto_move(game, new_state)
    # The game row, the action, the note saying why the server acted, the
    # engine's events and the deadline rows are written together, in one
    # round trip on PostgreSQL (``sync_deadlines`` sends them).
    writes = [*(writes or ()), update_statement(game, fields)]
    rows = [
        GameEvent(game=game, seq=game.version, index=0, kind="action", payload=action.to_dict())
    ]
    if note:
        rows.append(GameEvent(game=game, seq=game.version, index=1, kind="note", payload=note))
    first = len(rows)
    rows += [
        GameEvent(game=game, seq=game.version, index=first + i, kind=ev.kind, payload=ev.to_dict())
        for i, ev in enumerate(events)
    ]
    writes.append(insert_statement(rows))
    # Kept on the row the broadcast is given, which words the new log lines
    # from them instead of reading them back (``presenters.log_lines``).
    game.__dict__.setdefault("_event_rows", []).extend(rows)
    # The deadlines of the new pending decisions are written with the move.
    charge_time_bank(game, actor)
    sync_deadlines(game, new_state, actor=actor, action_kind=action.kind, writes=writes)
    return new_state, events


def _mark_bankrupt_seats(game: Game, state: engine.State) -> None:
    out = {p for p in range(state.n) if not state.alive[p]}
    if not out:
        return
    # The seats this write reads anyway: only a seat newly out is written,
    # and the rows kept stay current (a write may still hold changes to them
    # that it has not sent yet, such as a take-over on a timeout).
    newly = [s for s in game_seats(game) if s.number in out and s.status == Seat.Status.PLAYING]
    if newly:
        game.seats.filter(number__in=[s.number for s in newly], status=Seat.Status.PLAYING).update(
            status=Seat.Status.BANKRUPT
        )
        for seat in newly:
            seat.status = Seat.Status.BANKRUPT


def _finish(game: Game, state: engine.State) -> None:
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.end_reason = state.end_reason
    forget_seats(game)
    for rank, player, worth in final_ranking(state):
        seat = game.seats.get(number=player)
        seat.final_rank = rank
        seat.final_net_worth = worth
        if rank == 1:
            seat.status = Seat.Status.WINNER
        elif seat.status == Seat.Status.PLAYING:
            seat.status = Seat.Status.BANKRUPT if not state.alive[player] else Seat.Status.FINISHED
        seat.save(update_fields=["final_rank", "final_net_worth", "status"])
    # In the same transaction, so a finished game is rated exactly once.
    rate_game(game)


# --- bots ---------------------------------------------------------------------


def bot_seats(game: Game) -> dict[int, str]:
    """Bot seats, and human seats a bot took over after repeated timeouts."""
    return {
        s.number: s.bot_kind or Seat.BotKind.HEURISTIC
        for s in game_seats(game)
        if s.status == Seat.Status.PLAYING and (s.user_id is None or s.taken_over)
    }


def bots_due(game: Game, state: engine.State) -> bool:
    if state.finished:
        return False
    bots = bot_seats(game)
    return bool(bots) and any(p.player in bots for p in engine.pending_decisions(state))


def set_auto_move(game: Game, state: engine.State, now: datetime | None = None) -> None:
    """Keep ``game.auto_move_at`` (the due row of the next bot move) true to
    ``state``; the caller saves the field with the version."""
    if bots_due(game, state):
        now = now or timezone.now()
        game.auto_move_at = now + timedelta(milliseconds=game.bot_delay_ms)
    else:
        game.auto_move_at = None


def play_bot_move(game_id: int, expected_version: int) -> bool:
    """One bot decision, if the game is still where the task expected.
    Returns whether a move was made."""
    with transaction.atomic():
        try:
            # The seats and deadline rows the move needs come with the lock.
            game = lock_game_with_rows(game_id)
        except GameNotFound:
            return False
        if game.version != expected_version or game.status != Game.Status.ACTIVE:
            return False
        return play_bot(game, load_state(game))


def play_bot(game: Game, state: engine.State) -> bool:
    """The next bot decision of the locked ``game``; if no bot is to move,
    its due row is cleared so that the sweep stops finding it."""
    bots = bot_seats(game)
    player = _next_bot(state, bots)
    if player is None:
        if game.auto_move_at is not None:
            game.auto_move_at = None
            game.save(update_fields=["auto_move_at"])
        return False
    # The bot's own choices come from the game's secret too, on a stream of
    # this version's: nobody can tell what it will bid or offer.
    bot = engine.make_bot(bots[player], rng=engine.bot_rng(state, game.version))
    _apply(game, bot.act(state, player), actor=player, last_write=True)
    return True


def _next_bot(state: engine.State, bots: dict[int, str]) -> int | None:
    actor = engine.next_actor(state)
    if actor in bots:
        return actor
    for pending in engine.pending_decisions(state):
        if pending.player in bots:
            return pending.player
    return None
