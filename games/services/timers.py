"""Deadlines: storing them with each write, and resolving them when they pass.

The database holds the truth: one ``Deadline`` row per pending decision,
rewritten in the same transaction as the move that changed the decisions.
Two things fire ``expire_decision``: an ETA task enqueued on commit for a
near deadline, and the beat sweep for everything overdue. Both pass the game
version they saw; the game row lock plus that version is the compare-and-set,
so a duplicate, a late firing or a player acting at the last instant leaves
exactly one outcome.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import deadlines as dl
from games import decisions, engine
from games.models import Deadline, Game, Seat
from games.services.errors import GameNotFound, InvalidRequest, NotAllowed
from games.services.locking import (
    Statement,
    access_seat,
    insert_statement,
    lock_game,
    reader,
    run_together,
    update_statement,
)

logger = logging.getLogger(__name__)

# How late a bot's countdown task may be before the sweep plays the move
# (both may then try; the version check lets one of them through). The soak
# allows the sweep plus 2 s for an overdue move, which a 2 s grace used up.
BOT_GRACE_SECONDS = 1


# --- rows read once per write ----------------------------------------------------
#
# A write (one transaction, the game row locked) reads the game's seats and
# deadline rows at most once and keeps them on the locked ``Game`` instance,
# so that the timeout, the deadline rewrite, the standing orders and the bot
# check do not each query them again. Whoever changes seats by a queryset
# update changes the kept rows too or calls ``forget_seats`` (after which
# they are read again, without changes the write has not sent yet);
# ``sync_deadlines`` keeps its rows current.


def game_seats(game: Game) -> list[Seat]:
    """The game's seats (with their users), read once per write."""
    seats: list[Seat] | None = getattr(game, "_seat_rows", None)
    if seats is None:
        seats = list(game.seats.select_related("user").order_by("number"))
        game._seat_rows = seats  # type: ignore[attr-defined]
    return seats


def forget_seats(game: Game) -> None:
    game.__dict__.pop("_seat_rows", None)


def _seat(game: Game, number: int) -> Seat | None:
    return next((s for s in game_seats(game) if s.number == number), None)


def game_deadlines(game: Game) -> list[Deadline]:
    """The game's deadline rows, read once per write and kept current by
    ``sync_deadlines``."""
    rows: list[Deadline] | None = getattr(game, "_deadline_rows", None)
    if rows is None:
        rows = list(game.deadlines.all())
        game._deadline_rows = rows  # type: ignore[attr-defined]
    return rows


def lock_game_with_rows(pk: int | None = None, *, public_id: str | None = None) -> Game:
    """``lock_game`` (by ``pk`` or ``public_id``) that also reads the game's
    deadline rows and seats (with their users), all in one round trip on
    PostgreSQL. The rows are read by statements after the lock, so they are
    what the last writer of this game committed (each statement has a
    snapshot of its own)."""
    from django.contrib.auth import get_user_model

    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("lock_game must be called inside transaction.atomic()")
    # SQLite has no row locks: its writers queue on the database (IMMEDIATE).
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    games, deadlines, seats = reader(Game), reader(Deadline), reader(Seat)
    users = reader(get_user_model())
    key: int | str | None
    if pk is not None:
        where, key, game_id = f"{games.table}.id = %s", pk, "%s"
    else:
        # The rows' statements find the game's id from its public id: the
        # lock's statement has already run, so it is the same game.
        where, key = f"{games.table}.public_id = %s", public_id
        game_id = f"(SELECT g.id FROM {games.table} g WHERE g.public_id = %s)"
    found, deadline_rows, seat_rows = run_together(
        [
            (f"SELECT {games.columns()} FROM {games.table} WHERE {where}{lock}", [key]),
            (f"SELECT {deadlines.columns()} FROM {deadlines.table}"
             f" WHERE {deadlines.table}.game_id = {game_id}", [key]),
            (f"SELECT {seats.columns()}, {users.columns('u')} FROM {seats.table}"
             f" LEFT JOIN {users.table} u ON u.id = {seats.table}.user_id"
             f" WHERE {seats.table}.game_id = {game_id} ORDER BY {seats.table}.number", [key]),
        ]
    )  # fmt: skip
    if not found:
        raise GameNotFound("There is no such game.")
    game: Game = games.build(found[0])
    game._deadline_rows = [deadlines.build(r) for r in deadline_rows]  # type: ignore[attr-defined]
    width = len(seats.fields)
    seat_list = []
    for row in seat_rows:
        seat = seats.build(row)
        Seat.user.field.set_cached_value(
            seat, users.build(row[width:]) if seat.user_id is not None else None
        )
        Seat.game.field.set_cached_value(seat, game)
        seat_list.append(seat)
    game._seat_rows = seat_list  # type: ignore[attr-defined]
    return game


def known_due_times(game: Game, version: int) -> list[datetime] | None:
    """Due times of the rows this write left at ``version``, if it knows them
    (so that scheduling after commit need not read them back)."""
    rows: list[Deadline] | None = getattr(game, "_deadline_rows", None)
    if rows is None or game.version != version:
        return None
    return [d.due_at for d in rows if d.version == version]


def sync_deadlines(
    game: Game,
    state: engine.State,
    *,
    actor: int | None,
    action_kind: str = "",
    now: datetime | None = None,
    writes: Sequence[Statement] = (),
) -> None:
    """Make the deadline rows match the pending decisions of ``state``.

    A decision still open keeps its clock unless it is new to the player who
    just acted (their next move) or an auction bid extended the window; the
    claim, trade and time-limit windows keep theirs until they close.
    Called inside the write's transaction with the game row locked.
    ``writes``, the rest of the write, are sent first, in the same round
    trip on PostgreSQL."""
    now = now or timezone.now()
    statements = list(writes)
    table = reader(Deadline).table
    existing = {(d.player, d.kind, d.ref): d for d in game_deadlines(game)}
    if state.finished or game.status != Game.Status.ACTIVE:
        if existing:
            statements.append((f"DELETE FROM {table} WHERE game_id = %s", [game.pk]))
        if statements:
            run_together(statements)
        game._deadline_rows = []  # type: ignore[attr-defined]
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
        if old is not None and _keeps_clock(key[1], player, actor, action_kind):
            kept.append(old)
            continue
        if old is not None:
            drop.append(old.pk)
        arising.append(key)
    # A diff: only the rows that changed are written.
    if drop:
        marks = ", ".join(["%s"] * len(drop))
        statements.append((f"DELETE FROM {table} WHERE id IN ({marks})", drop))
    stale = [d.pk for d in kept if d.version != game.version]
    if stale:
        marks = ", ".join(["%s"] * len(stale))
        statements.append(
            (f"UPDATE {table} SET version = %s WHERE id IN ({marks})", [game.version, *stale])
        )
    for d in kept:
        d.version = game.version
    created: list[Deadline] = []
    if arising:
        timer = dl.TimerSettings.of(game)
        created = [
            _new_deadline(game, timer, _seat(game, p), p, kind, ref, now)
            for p, kind, ref in arising
        ]
        for d in created:
            if d.player == actor:
                d.notice_due = False  # who just moved is here
        # Last, so that its new ids are the last result.
        statements.append(insert_statement(created, returning_pk=True))
    if statements:
        results = run_together(statements)
        for d, (pk,) in zip(created, results[-1] if created else [], strict=True):
            d.pk = pk
            d._state.adding, d._state.db = False, reader(Deadline).alias
    game._deadline_rows = kept + created  # type: ignore[attr-defined]
    # Tell players whose turn has come. The rows say so (``notice_due``);
    # the task is the shortcut, beat's sweep (``turn_notices_due``) the net.
    if any(d.notice_due for d in created):
        game_id = game.pk
        transaction.on_commit(lambda: _notify_turn(game_id))


def _notify_turn(game_id: int) -> None:
    from monopoly_site import redis_health
    from notifications.tasks import notify_your_turn

    try:
        with redis_health.guarded():
            notify_your_turn.delay(game_id)
    except Exception:
        logger.exception("Could not enqueue the turn notice of game %s", game_id)


def _keeps_clock(kind: str, player: int, actor: int | None, action_kind: str) -> bool:
    if kind in decisions.WINDOW_KINDS:
        return True
    if kind == "bid":
        return action_kind != engine.BID
    return player != actor


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


def charge_time_bank(game: Game, actor: int, now: datetime | None = None) -> None:
    """Spend the actor's thinking time from their bank (a time-bank game)."""
    if not game.time_bank_seconds or actor < 0:
        return
    now = now or timezone.now()
    timer = dl.TimerSettings.of(game)
    started = min(
        (
            d.started_at
            for d in game_deadlines(game)
            if d.player == actor and d.kind not in decisions.WINDOW_KINDS
        ),
        default=None,
    )
    used = max(0.0, (now - started).total_seconds()) if started else 0.0
    seat = _seat(game, actor)
    if seat is None:
        return
    seat.bank_seconds = dl.bank_after_move(timer, seat.bank_seconds, used)
    seat.save(update_fields=["bank_seconds"])


# --- resolving ------------------------------------------------------------------


def timeout_for(state: engine.State, deadline: Deadline) -> engine.Action:
    """The default for this very decision. The engine's ``timeout_action``
    answers per player, so the windows that name their own claim or trade
    are built here to close exactly that one."""
    if deadline.kind == decisions.TIME_LIMIT:
        return engine.Action(engine.END_NOW, engine.SYSTEM)
    if deadline.kind == "claim_rent":
        return engine.Action(engine.EXPIRE_CLAIM, engine.SYSTEM, target=int(deadline.ref))
    if deadline.kind == "trade_response":
        return engine.Action(engine.REJECT_TRADE, deadline.player, target=int(deadline.ref))
    if deadline.kind == "bid":
        return engine.Action(engine.PASS_BID, deadline.player)
    return engine.timeout_action(state, deadline.player)


def expire_decision(game_id: int, expected_version: int, now: datetime | None = None) -> bool:
    """Apply the default for the earliest overdue decision of the game, or
    play its overdue bot move, if the game is still at ``expected_version``.
    Returns whether anything changed."""
    from games.services.play import apply_system_action, load_state, play_bot

    with transaction.atomic():
        try:
            game = lock_game_with_rows(game_id)
        except GameNotFound:
            return False
        if game.version != expected_version or game.status != Game.Status.ACTIVE:
            return False
        now = now or timezone.now()
        # The rows are read once: the rewrite after the move reuses them.
        overdue = [d for d in game_deadlines(game) if d.due_at <= now]
        deadline = min(overdue, key=lambda d: (d.due_at, d.pk), default=None)
        bot_at = game.auto_move_at
        if bot_at is not None and bot_at <= (deadline.due_at if deadline else now):
            # A bot's move whose own task is late or was lost (a worker
            # killed, Redis emptied): the earliest due work goes first.
            return play_bot(game, load_state(game))
        if deadline is None:
            return False
        state = load_state(game)
        action = timeout_for(state, deadline)
        if not engine.is_legal(state, action):
            # The decision is gone (e.g. an engine throw-limit closed the
            # claim): recompute the rows and let the next firing decide.
            logger.warning("Deadline %s of game %s has no legal default", deadline.pk, game_id)
            deadline.delete()
            return False
        note = _timeout_note(state, deadline, action)
        payload = {
            "text": note,
            "source": "timeout",
            "deadline": deadline.pk,
            "kind": deadline.kind,
            "player": deadline.player,
            "due_at": deadline.due_at.isoformat(),
        }
        takeover = False
        # The timeout counters go out with the move's own statements.
        writes: list[Statement] = []
        if deadline.kind not in decisions.NON_BLOCKING_KINDS and deadline.player >= 0:
            takeover = _count_timeout(game, deadline.player, writes)
        apply_system_action(
            game, action, note=payload, actor=deadline.player, state=state, writes=writes
        )
        _notify_timeout(game, state, deadline, takeover)
        return True


def expire_one(game_id: int, expected_version: int) -> bool:
    """``expire_decision`` for one game of a batch: a failure is logged and
    left to the next sweep instead of stopping the batch."""
    try:
        return expire_decision(game_id, expected_version)
    except Exception:
        logger.exception("Could not expire the decision of game %s", game_id)
        return False


def _timeout_note(state: engine.State, d: Deadline, action: engine.Action) -> str:
    if d.kind == decisions.TIME_LIMIT:
        return "The time limit was reached (timer)."
    name = state.names[d.player] if 0 <= d.player < state.n else "The system"
    if d.kind == "claim_rent":
        return f"{name}'s rent claim window closed; the rent is forfeited (timer)."
    return f"{name} ran out of time: {action.kind.replace('_', ' ')} (timer)."


def _count_timeout(game: Game, player: int, writes: list[Statement]) -> bool:
    """Count a timeout (its statement added to ``writes``); return whether a
    bot now takes the seat."""
    seat = _seat(game, player)
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
    writes.append(update_statement(seat, fields))
    return takeover


def count_own_move(seat: Seat, writes: list[Statement]) -> None:
    """A move by the player themself: one more decision of theirs, and the end
    of their run of timeouts. Its statement (added to ``writes``) goes out
    with the move's own; ``seat`` is the row the write read with the lock."""
    table = reader(Seat).table
    seat.decisions_total += 1
    seat.timeouts_in_row = 0
    writes.append(
        (
            f"UPDATE {table} SET decisions_total = decisions_total + 1, timeouts_in_row = 0"
            " WHERE id = %s",
            [seat.pk],
        )
    )


def _notify_timeout(game: Game, state: engine.State, d: Deadline, takeover: bool) -> None:
    from notifications import services as notify

    if d.kind == "claim_rent":
        seat = _seat(game, d.player)
        if seat is not None and seat.user_id is not None:
            notify.on_commit(
                seat.user_id, game.pk, "claim_expired",
                "Your rent claim window closed; the rent was forfeited.",
                dedupe_key=f"claim:{game.pk}:{d.ref}:{d.pk}",
            )  # fmt: skip
        return
    if takeover:
        seat = _seat(game, d.player)
        if seat is not None and seat.user_id:
            notify.on_commit(
                seat.user_id, game.pk, "takeover",
                f"After {game.takeover_after} timeouts in a row a bot is playing your seat. "
                "Reclaim it from the game page.",
            )  # fmt: skip


@transaction.atomic
def reclaim_seat(*, public_id: str, user: Any) -> Seat:
    """The player takes their seat back from the bot."""
    from games.services.hooks import after_commit
    from games.services.play import set_auto_move

    game = lock_game(public_id=public_id)
    seat = access_seat(game, user)
    if game.status != Game.Status.ACTIVE or seat.status != Seat.Status.PLAYING:
        raise InvalidRequest("This game is not in play.")
    if not seat.taken_over:
        raise InvalidRequest("Your seat is not being played by a bot.")
    seat.taken_over = False
    seat.timeouts_in_row = 0
    seat.save(update_fields=["taken_over", "timeouts_in_row"])
    state = engine.from_dict(game.state or {})
    set_auto_move(game, state)  # the bot no longer moves for this seat
    game.save(update_fields=["updated_at", "auto_move_at"])
    # Give the returning player a fresh clock with reminders.
    game.deadlines.filter(player=seat.number).delete()
    sync_deadlines(game, state, actor=seat.number)
    # Any other bot due already has its task: none is queued twice.
    after_commit(game.pk, game.version, bots_due=False)
    return seat


# --- the sweep ------------------------------------------------------------------


def overdue_query(now: datetime, limit: int) -> Any:
    """The sweep's query; it must stay an index range scan on ``due_at``."""
    return (
        Deadline.objects.filter(due_at__lte=now)
        .order_by("due_at")
        .values_list("game_id", "version")[:limit]
    )


def overdue_bots_query(before: datetime, limit: int) -> Any:
    """Games whose bot move was due before ``before``: an index range scan
    on ``auto_move_at`` (a partial index of the games with a bot due)."""
    return (
        Game.objects.filter(auto_move_at__lte=before)
        .order_by("auto_move_at")
        .values_list("pk", "version")[:limit]
    )


def overdue_games(now: datetime | None = None, limit: int = 2000) -> list[tuple[int, int]]:
    """(game, version) of every game with an overdue deadline or bot move.
    A bot move counts once it is ``BOT_GRACE_SECONDS`` late: until then its
    own countdown task, not the sweep, is expected to play it."""
    now = now or timezone.now()
    seen: dict[tuple[int, int], None] = {}
    for game_id, version in overdue_query(now, limit):
        seen.setdefault((game_id, version), None)
    late = now - timedelta(seconds=BOT_GRACE_SECONDS)
    for game_id, version in overdue_bots_query(late, limit):
        seen.setdefault((game_id, version), None)
    return list(seen)


def reminders_due(now: datetime | None = None, limit: int = 500) -> list[int]:
    now = now or timezone.now()
    return list(
        Deadline.objects.filter(reminded=False, remind_at__lte=now)
        .order_by("remind_at")
        .values_list("pk", flat=True)[:limit]
    )


def turn_notices_due(limit: int = 500) -> list[int]:
    """Games with a "your turn" notice still to send (a lost task's, or one
    whose task is about to run: claiming makes either send it once)."""
    rows = Deadline.objects.filter(notice_due=True).values_list("game_id", flat=True)
    return list(dict.fromkeys(rows[:limit]))


def claim_turn_notices(game_id: int) -> list[Deadline]:
    """The game's decisions whose notice the caller, and only the caller,
    is now to send: locked (rows another claimer holds are skipped) and
    cleared in one statement."""
    with transaction.atomic():
        rows = list(
            Deadline.objects.select_for_update(skip_locked=True)
            .filter(game_id=game_id, notice_due=True)
            .order_by("due_at")
        )
        if rows:
            Deadline.objects.filter(pk__in=[d.pk for d in rows]).update(notice_due=False)
    return rows


def claim_reminder(deadline_id: int) -> Deadline | None:
    """Compare-and-set: only the caller that flips ``reminded`` sends it."""
    if not Deadline.objects.filter(pk=deadline_id, reminded=False).update(reminded=True):
        return None
    return Deadline.objects.select_related("game").filter(pk=deadline_id).first()


# --- vacation -------------------------------------------------------------------


def vacation_days_left(user: Any, now: datetime | None = None) -> int:
    now = now or timezone.now()
    return dl.vacation_days_left(
        per_year=settings.VACATION_DAYS_PER_YEAR,
        used=user.vacation_days_used,
        used_year=user.vacation_year,
        year=now.year,
    )


def _user_deadlines(user: Any) -> Any:
    seats = Seat.objects.filter(
        user=user, status=Seat.Status.PLAYING, game__status=Game.Status.ACTIVE
    ).values_list("game_id", "number")
    match = Q(pk__in=[])
    for game_id, number in seats:
        match |= Q(game_id=game_id, player=number)
    return Deadline.objects.filter(match).exclude(kind__in=(decisions.TIME_LIMIT,))


@transaction.atomic
def start_vacation(*, user: Any, days: int, now: datetime | None = None) -> datetime:
    """Pause the user's deadlines in every game for ``days`` days. Only their
    own clocks move, so an opponent's time is never shortened."""
    from accounts.models import User

    now = now or timezone.now()
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.vacation_until and user.vacation_until > now:
        raise InvalidRequest("You are already on vacation.")
    if days < 1:
        raise InvalidRequest("Take at least one day.")
    left = vacation_days_left(user, now)
    if days > left:
        raise NotAllowed(f"You have {left} vacation days left this year.")
    until = now + timedelta(days=days)
    if user.vacation_year != now.year:
        user.vacation_year, user.vacation_days_used = now.year, 0
    user.vacation_days_used += days
    user.vacation_until = until
    user.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
    _shift_deadlines(user, lambda due: dl.paused(due, now, until))
    return until


@transaction.atomic
def end_vacation(*, user: Any, now: datetime | None = None) -> None:
    """Come back early: the unused whole days are returned."""
    from accounts.models import User

    now = now or timezone.now()
    user = User.objects.select_for_update().get(pk=user.pk)
    until = user.vacation_until
    if until is None or until <= now:
        raise InvalidRequest("You are not on vacation.")
    unused = int((until - now).total_seconds() // 86400)
    if user.vacation_year == now.year:
        user.vacation_days_used = max(0, user.vacation_days_used - unused)
    user.vacation_until = None
    user.save(update_fields=["vacation_until", "vacation_days_used"])
    _shift_deadlines(user, lambda due: dl.resumed(due, now, until))


def _shift_deadlines(user: Any, shift: Any) -> None:
    # Lock the games in a fixed order (by id) so this never deadlocks with a move.
    rows = list(_user_deadlines(user).order_by("game_id", "pk"))
    game_ids = sorted({d.game_id for d in rows})
    list(Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk"))
    for d in rows:
        new_due = shift(d.due_at)
        if new_due == d.due_at:
            continue
        delta = new_due - d.due_at
        d.due_at = new_due
        d.started_at += delta
        if d.remind_at is not None:
            d.remind_at += delta
        d.save(update_fields=["due_at", "started_at", "remind_at"])


def near_deadlines(
    game_id: int,
    version: int,
    now: datetime | None = None,
    due_times: list[datetime] | None = None,
) -> list[datetime]:
    """Due times of this version's deadlines inside the ETA horizon: at most
    the first, since resolving it moves the version and reschedules.
    ``due_times``, if given, are those rows' due times (not read again)."""
    now = now or timezone.now()
    horizon = now + timedelta(seconds=settings.TIMER_ETA_HORIZON_SECONDS)
    if due_times is not None:
        near = [due for due in due_times if due <= horizon]
        return [min(near)] if near else []
    first = (
        Deadline.objects.filter(game_id=game_id, version=version, due_at__lte=horizon)
        .order_by("due_at")
        .values_list("due_at", flat=True)
        .first()
    )
    return [first] if first is not None else []
