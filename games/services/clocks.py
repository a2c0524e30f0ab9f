"""The clocks of a running game: its deadline rows and seat counters.

One ``Deadline`` row per pending decision, rewritten in the same write as
the move that changed the decisions (``sync_deadlines``), and the seat
counters a move or a timeout changes. All of it goes out with the write's
own statements (``Write.flush``).
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from common.rows import reader
from games import deadlines as dl
from games import decisions, engine
from games.models import Deadline, Game, Seat
from games.services.statements import insert_statement
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
    windows keep theirs until they close.
    Called inside the write's transaction with the game row locked; the
    write's other statements go out first, in the same round trip."""
    game = w.game
    now = now or timezone.now()
    table = reader(Deadline).table
    existing = {(d.player, d.kind, d.ref): d for d in w.deadlines}
    if state.finished or game.status != Game.Status.ACTIVE:
        if existing:
            w.statements.append((f"DELETE FROM {table} WHERE game_id = %s", [game.pk]))
        w.flush()
        w.deadlines = []
        return
    wanted: dict[tuple[int, str, str], int] = {}
    for p in engine.pending_decisions(state):
        wanted[(p.player, p.kind, str(p.ref))] = p.player
    # Only time-limit rules can end a game early (``end_now``).
    if game.time_limit_seconds and game.started_at and state.rules.end_condition == "time":
        wanted[(engine.SYSTEM, decisions.TIME_LIMIT, "")] = engine.SYSTEM
    drop = [d.pk for key, d in existing.items() if key not in wanted]
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
    # A diff: only the rows that changed are written.
    if drop:
        marks = ", ".join(["%s"] * len(drop))
        w.statements.append((f"DELETE FROM {table} WHERE id IN ({marks})", drop))
    stale = [d.pk for d in kept if d.version != game.version]
    if stale:
        marks = ", ".join(["%s"] * len(stale))
        w.statements.append(
            (f"UPDATE {table} SET version = %s WHERE id IN ({marks})", [game.version, *stale])
        )
    for d in kept:
        d.version = game.version
    created: list[Deadline] = []
    if arising:
        timer = dl.TimerSettings.of(game)
        created = [
            _new_deadline(game, timer, w.seat(p), p, kind, ref, now) for p, kind, ref in arising
        ]
        for d in created:
            if d.player == actor:
                d.notice_due = False  # who just moved is here
        # Last, so that the new rows are the last result.
        results = w.flush(insert_statement(created, returning=True))
        rows = reader(Deadline)
        created = [rows.build(row) for row in results[-1]]
        for d in created:
            Deadline.game.field.set_cached_value(d, game)
    else:
        w.flush()
    w.deadlines = kept + created
    # Tell players whose turn has come. The rows say so (``notice_due``);
    # the notice after the commit is the shortcut, beat's sweep
    # (``turn_notices_due``) the net.
    if any(d.notice_due for d in created):
        w.turn_notices = True


def _new_deadline(
    game: Game,
    timer: dl.TimerSettings,
    seat: Seat | None,
    player: int,
    kind: str,
    ref: str,
    now: datetime,
) -> Deadline:
    if kind == decisions.TIME_LIMIT:
        start = game.started_at or now
        due = dl.due_at(start, game.time_limit_seconds)
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
        notice_due=human,
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
    w.update(seat, ["bank_seconds"])


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
    if takeover:
        seat.taken_over = True
        seat.takeovers_total += 1
        fields += ["taken_over", "takeovers_total"]
    w.update(seat, fields)
    return takeover


def count_own_move(w: Write, seat: Seat) -> None:
    """A move by the player themself: one more decision of theirs, and the
    end of their run of timeouts."""
    seat.decisions_total += 1
    seat.timeouts_in_row = 0
    w.update(seat, ["decisions_total", "timeouts_in_row"])
