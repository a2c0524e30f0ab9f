"""The clocks of a running game: its deadline rows and seat counters.

One ``Deadline`` row per pending decision, rewritten in the same write as
the move that changed the decisions (``sync_deadlines``), and the seat
counters a move or a timeout changes, written through the ORM in the
write's transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import deadlines as dl
from games import decisions, engine
from games.models import Deadline, Game, Seat
from games.services.write import Write


def sync_deadlines(
    w: Write,
    state: engine.State,
    *,
    actor: int | None,
    action_kind: str = "",
    now: datetime | None = None,
) -> None:
    """Make the deadline rows match the pending decisions of ``state``.

    A decision still open keeps its clock (``decisions.keeps_clock``): the
    optional moves of a turn never extend it; only a decision arising anew
    (its player answered it and it came again, the next turn) or a bid (the
    auction's new question) starts one. The claim, trade and time-limit
    windows, and the length cap's days, keep theirs until they close. An
    interrupt (a debt, an auction, a shortage's wish window) holds the turn
    player's decision up: its clock stops (``Game.held_clock``) and resumes with the time it had left
    when the decision comes back, so no interrupt gives a fresh one.
    Called inside the write's transaction with the game row locked."""
    game = w.game
    now = now or timezone.now()
    existing = {(d.player, d.kind, d.ref): d for d in w.deadlines}
    if state.finished or game.status != Game.Status.ACTIVE:
        if existing:
            w.store_deadlines([d.pk for d in existing.values() if d.pk is not None], [], [])
        _set_held(w, None)
        w.deadlines = []
        return
    wanted: dict[tuple[int, str, str], int] = {}
    for p in engine.pending_decisions(state):
        wanted[(p.player, p.kind, str(p.ref))] = p.player
    # Only time-limit rules can end a game early (``end_now``).
    if game.time_limit_seconds and game.started_at and state.rules.end_condition == "time":
        wanted[(engine.SYSTEM, decisions.TIME_LIMIT, "")] = engine.SYSTEM
    # A length cap in days ends it at once when they are up (``end_cap``).
    if state.rules.cap_days and game.started_at:
        wanted[(engine.SYSTEM, decisions.LENGTH_CAP, "")] = engine.SYSTEM
    turn = engine.turn_decision(state)
    turn_key = (turn.player, turn.kind, str(turn.ref)) if turn is not None else None
    held = game.held_clock
    if held is not None and _held_key(held) != turn_key:
        held = None  # the turn moved on, and its clock with it
    drop: list[int] = []
    for key, d in existing.items():
        if key in wanted:
            continue
        if key == turn_key and decisions.keeps_clock(key[1], key[0], actor, action_kind):
            held = _hold(d, now)  # an interrupt holds the turn up
        drop.append(d.pk)
    kept: list[Deadline] = []
    arising: list[tuple[int, str, str]] = []
    for key, player in wanted.items():
        old = existing.get(key)
        if old is not None and decisions.keeps_clock(key[1], player, actor, action_kind):
            kept.append(old)
            continue
        if old is not None:
            drop.append(old.pk)
        arising.append(key)
    created: list[Deadline] = []
    timer = dl.TimerSettings.of(game) if arising else None
    for player, kind, ref in arising:
        if held is not None and _held_key(held) == (player, kind, ref):
            created.append(_resumed(game, w.seat(player), held, now))
            held = None
        else:
            assert timer is not None
            created.append(
                _new_deadline(
                    game, timer, w.seat(player), player, kind, ref, now, state.rules.cap_days
                )
            )
    for d in created:
        if d.notice_at is not None and d.player == w.mover:
            # A person who has just moved is most likely still at the game:
            # the first look at whether they are away waits a recheck
            # period instead of costing a task per move. The look itself
            # goes by presence (a visible page or an API stream), never by
            # who moved last; and the timer, a standing order or a bot
            # playing for a seat is not its player moving (``w.mover``).
            d.notice_at = now + timedelta(seconds=settings.TURN_NOTICE_RECHECK_SECONDS)
    # A diff: only the rows that changed are written (inside a chain of
    # versions, once at its end: ``Write.write_behind``).
    _set_held(w, held)
    stale = [d.pk for d in kept if d.version != game.version]
    w.store_deadlines([pk for pk in drop if pk is not None], stale, created)
    for d in kept:
        d.version = game.version
    w.deadlines = kept + created
    # Tell players whose turn has come. The rows say when to look
    # (``notice_at``); the task after the commit is the shortcut for those
    # due now, beat's sweep (``turn_notices_due``) the net and the later looks.
    if any(d.notice_at is not None and d.notice_at <= now for d in created):
        w.turn_notices = True


def _held_key(held: dict[str, Any]) -> tuple[int, str, str]:
    return (held["player"], held["kind"], held["ref"])


def _hold(d: Deadline, now: datetime) -> dict[str, Any]:
    """What the turn's clock is to resume with: its times, and when it stopped."""
    remind = d.remind_at.isoformat() if d.remind_at is not None else None
    return {
        "player": d.player, "kind": d.kind, "ref": d.ref, "held_at": now.isoformat(),
        "started_at": d.started_at.isoformat(), "due_at": d.due_at.isoformat(),
        "remind_at": remind, "reminded": d.reminded,
    }  # fmt: skip


def _resumed(game: Game, seat: Seat | None, held: dict[str, Any], now: datetime) -> Deadline:
    """The held clock, running again with the time it had left: the time the
    interrupt took was others' (or another decision's own clock)."""
    pause = now - datetime.fromisoformat(held["held_at"])
    remind = held["remind_at"]
    human = seat is not None and seat.user_id is not None and not seat.taken_over
    return Deadline(
        game=game, player=held["player"], kind=held["kind"], ref=held["ref"],
        version=game.version,
        started_at=datetime.fromisoformat(held["started_at"]) + pause,
        due_at=datetime.fromisoformat(held["due_at"]) + pause,
        remind_at=datetime.fromisoformat(remind) + pause if remind else None,
        reminded=held["reminded"], notice_at=now if human else None,
    )  # fmt: skip


def _set_held(w: Write, held: dict[str, Any] | None) -> None:
    if w.game.held_clock != held:
        w.game.held_clock = held
        w.save_game(["held_clock"])


def _new_deadline(
    game: Game,
    timer: dl.TimerSettings,
    seat: Seat | None,
    player: int,
    kind: str,
    ref: str,
    now: datetime,
    cap_days: int = 0,
) -> Deadline:
    if kind in decisions.GAME_END_KINDS:
        start = game.started_at or now
        if kind == decisions.TIME_LIMIT:
            due = dl.due_at(start, game.time_limit_seconds)
        else:
            due = start + timedelta(days=cap_days)
        return Deadline(
            game=game, player=player, kind=kind, ref=ref, version=game.version,
            started_at=start, due_at=due, remind_at=None, reminded=True,
        )  # fmt: skip
    user = seat.user if seat is not None else None
    vacation = user.vacation_until if user is not None else None
    start = dl.start_of_clock(now, vacation)
    bank = seat.bank_seconds if seat is not None else None
    due = dl.due_at(start, dl.allowance(timer, kind, bank))
    human = user is not None and not (seat is not None and seat.taken_over)
    return Deadline(
        game=game, player=player, kind=kind, ref=ref, version=game.version,
        started_at=start, due_at=due,
        remind_at=dl.remind_at(start, due) if human else None, reminded=not human,
        notice_at=now if human else None,
    )  # fmt: skip


def charge_time_bank(
    w: Write, actor: int, action_kind: str = "", now: datetime | None = None
) -> None:
    """Spend the actor's thinking time from their bank (a time-bank game),
    once per decision: when the move answers it. The optional moves made
    meanwhile neither spend it nor earn the increment (the decision keeps
    its clock through them, ``sync_deadlines``)."""
    game = w.game
    if not game.time_bank_seconds or actor < 0:
        return
    now = now or timezone.now()
    timer = dl.TimerSettings.of(game)
    answered = [
        d
        for d in w.deadlines
        if d.kind not in decisions.WINDOW_KINDS
        and decisions.answers(d.kind, d.player, actor, action_kind)
    ]
    if not answered:
        return
    started = min(d.started_at for d in answered)
    used = max(0.0, (now - started).total_seconds())
    seat = w.seat(actor)
    if seat is None:
        return
    seat.bank_seconds = dl.bank_after_move(timer, seat.bank_seconds, used)
    seat.save(update_fields=["bank_seconds"])


def count_timeout(w: Write, player: int) -> bool:
    """Count a timeout; return whether a bot now takes the seat."""
    game = w.game
    seat = w.seat(player)
    if seat is None or seat.user_id is None or seat.taken_over:
        return False
    seat.timeouts_in_row += 1
    seat.timeouts_total += 1
    fields = ["timeouts_in_row", "timeouts_total"]
    takeover = bool(game.takeover_after) and seat.timeouts_in_row >= game.takeover_after
    if game.takeover_on_first_timeout and seat.decisions_total == 0:
        takeover = True  # a no-show: the player never made a decision here
    if takeover:
        seat.taken_over = True
        seat.takeovers_total += 1
        fields += ["taken_over", "takeovers_total"]
    seat.save(update_fields=fields)
    return takeover


def count_own_move(w: Write, seat: Seat) -> None:
    """A move by the player themself: one more decision of theirs, and the
    end of their run of timeouts."""
    seat.decisions_total += 1
    seat.timeouts_in_row = 0
    seat.save(update_fields=["decisions_total", "timeouts_in_row"])
