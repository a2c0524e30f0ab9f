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
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from games import deadlines as dl
from games import decisions, engine
from games.models import Deadline, Game, Seat
from games.services.clocks import count_timeout, sync_deadlines
from games.services.errors import GameNotFound, InvalidRequest, NotAllowed
from games.services.locking import access_seat
from games.services.play import apply_system_action, load_state, play_bot, set_auto_move
from games.services.subscribers import announce
from games.services.write import Notice, Write, game_transaction, lock, one_statement

logger = logging.getLogger(__name__)

# How late a bot's countdown task may be before the sweep plays the move
# (both may then try; the version check lets one of them through). The soak
# allows the sweep plus 2 s for an overdue move, which a 2 s grace used up.
BOT_GRACE_SECONDS = 1


# --- resolving ------------------------------------------------------------------


def timeout_for(state: engine.State, deadline: Deadline) -> engine.Action:
    """The default for this very decision (its registry entry's): the engine's
    ``timeout_action`` answers per player, so the windows that name their own
    claim or trade close exactly that one."""
    return decisions.timeout_action(state, deadline.kind, deadline.player, deadline.ref)


def expire_decision(game_id: int, expected_version: int, now: datetime | None = None) -> bool:
    """Apply the default for the earliest overdue decision of the game, or
    play its overdue bot move, if the game is still at ``expected_version``.
    Returns whether anything changed."""
    with game_transaction():
        try:
            w = lock(game_id)
        except GameNotFound:
            return False
        game = w.game
        if game.version != expected_version or game.status != Game.Status.ACTIVE:
            return False
        now = now or timezone.now()
        # The rows are read once: the rewrite after the move reuses them.
        overdue = [d for d in w.deadlines if d.due_at <= now]
        deadline = min(overdue, key=lambda d: (d.due_at, d.pk), default=None)
        bot_at = game.auto_move_at
        if bot_at is not None and bot_at <= (deadline.due_at if deadline else now):
            # A bot's move whose own task is late or was lost (a worker
            # killed, Redis emptied): the earliest due work goes first.
            return play_bot(w, load_state(game))
        if deadline is None:
            return False
        state = load_state(game)
        action = timeout_for(state, deadline)
        if not engine.is_legal(state, action):
            # The decision is gone (e.g. an engine throw-limit closed the
            # claim): recompute the rows and let the next firing decide.
            logger.warning("Deadline %s of game %s has no legal default", deadline.pk, game_id)
            Deadline.objects.filter(pk=deadline.pk).delete()
            w.deadlines = [d for d in w.deadlines if d.pk != deadline.pk]
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
        if deadline.kind not in decisions.NON_BLOCKING_KINDS and deadline.player >= 0:
            takeover = count_timeout(w, deadline.player)
        _notify_timeout(w, deadline, takeover)
        apply_system_action(w, action, note=payload, actor=deadline.player, state=state)
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
    if d.kind == decisions.LENGTH_CAP:
        return "The length cap was reached: the game ends by net worth (timer)."
    name = state.names[d.player] if 0 <= d.player < state.n else "The system"
    if d.kind == "claim_rent":
        return f"{name}'s rent claim window closed; the rent is forfeited (timer)."
    return f"{name} ran out of time: {action.kind.replace('_', ' ')} (timer)."


def _notify_timeout(w: Write, d: Deadline, takeover: bool) -> None:
    game = w.game
    seat = w.seat(d.player)
    if seat is None or seat.user_id is None:
        return
    if d.kind == "claim_rent":
        w.notices.append(
            Notice(
                seat.user_id, "claim_expired",
                "Your rent claim window closed; the rent was forfeited.",
                dedupe_key=f"claim:{game.pk}:{d.ref}:{d.pk}",
            )
        )  # fmt: skip
    elif takeover:
        text = (
            f"After {game.takeover_after} timeouts in a row a bot is playing your seat. "
            "Reclaim it from the game page."
        )
        if game.takeover_on_first_timeout and seat.decisions_total == 0:
            text = "Your first move timed out, so a bot is playing your seat."
        w.notices.append(Notice(seat.user_id, "takeover", text))


@game_transaction()
def reclaim_seat(*, public_id: str, user: Any) -> Seat:
    """The player takes their seat back from the bot."""
    w = lock(public_id=public_id)
    game = w.game
    seat = access_seat(w.seats, user)
    if game.status != Game.Status.ACTIVE or seat.status != Seat.Status.PLAYING:
        raise InvalidRequest("This game is not in play.")
    if not seat.taken_over:
        raise InvalidRequest("Your seat is not being played by a bot.")
    if game.takeover_on_first_timeout and seat.decisions_total == 0:
        # A no-show's seat (a tournament table): the bot plays it to the end.
        raise NotAllowed("Your first move timed out, so a bot plays this seat to the end.")
    seat.taken_over = False
    seat.timeouts_in_row = 0
    seat.save(update_fields=["taken_over", "timeouts_in_row"])
    state = load_state(game)
    set_auto_move(w, state)  # the bot no longer moves for this seat
    game.save(update_fields=["updated_at", "auto_move_at"])
    # Give the returning player a fresh clock with reminders.
    w.deadlines = [d for d in w.deadlines if d.player != seat.number]
    Deadline.objects.filter(game=game, player=seat.number).delete()
    sync_deadlines(w, state, actor=seat.number)
    # Any other bot due already has its task: none is queued twice.
    record = w.committed(state)
    record.bots_due = False
    announce(record)
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


def turn_notices_due(now: datetime | None = None, limit: int = 500) -> list[int]:
    """Games with a decision whose player is now to be looked at: a new
    decision whose task was lost (or is about to run: claiming makes either
    look once), or one that arose while its player was at the game and is
    due to be looked at again. An index range scan on ``notice_at``."""
    return list(dict.fromkeys(turn_notices_query(now or timezone.now(), limit)))


def turn_notices_query(now: datetime, limit: int) -> Any:
    """The notice sweep's query: an index range scan on ``notice_at``."""
    rows = Deadline.objects.filter(notice_at__lte=now).order_by("notice_at")
    return rows.values_list("game_id", flat=True)[:limit]


def claim_turn_notices(game_id: int, now: datetime | None = None) -> list[Deadline]:
    """The game's decisions whose player the caller, and only the caller,
    is now to look at: locked (rows another claimer holds are skipped) and
    cleared in one statement."""
    now = now or timezone.now()
    with game_transaction():
        rows = list(
            Deadline.objects.select_for_update(skip_locked=True)
            .filter(game_id=game_id, notice_at__lte=now)
            .order_by("due_at")
        )
        if rows:
            Deadline.objects.filter(pk__in=[d.pk for d in rows]).update(notice_at=None)
    return rows


@one_statement()
def look_again(deadline_ids: list[int], at: datetime, *, if_due_by: datetime | None = None) -> int:
    """These decisions' players were at the game when looked at: look again
    at ``at`` (a decision answered meanwhile has no row left to mark).
    With ``if_due_by``, only rows still due by then: a look made without
    claiming the rows leaves alone those a claimer took meanwhile."""
    if not deadline_ids:
        return 0
    rows = Deadline.objects.filter(pk__in=deadline_ids)
    if if_due_by is not None:
        rows = rows.filter(notice_at__lte=if_due_by)
    return rows.update(notice_at=at)


@one_statement()
def look_again_for(game_id: int, user_id: int, at: datetime) -> int:
    """``user_id`` has opened the game, which clears their notice: each of
    their open decisions is looked at again by ``at``, so that leaving with
    one still open tells them again."""
    seats = Seat.objects.filter(game_id=game_id, user_id=user_id).values("number")
    rows = (
        Deadline.objects.filter(game_id=game_id, player__in=seats)
        .exclude(kind__in=decisions.GAME_END_KINDS)
        .filter(Q(notice_at__isnull=True) | Q(notice_at__gt=at))
    )
    return rows.update(notice_at=at)


@one_statement()
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
    return Deadline.objects.filter(match).exclude(kind__in=decisions.GAME_END_KINDS)


@game_transaction()
def start_vacation(*, user: Any, days: int, now: datetime | None = None) -> datetime:
    """Pause the user's deadlines in every game for ``days`` days. Only their
    own clocks move, so an opponent's time is never shortened."""
    now = now or timezone.now()
    user = get_user_model().objects.select_for_update(no_key=True).get(pk=user.pk)  # as lock_user
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


@game_transaction()
def end_vacation(*, user: Any, now: datetime | None = None) -> None:
    """Come back early: the unused whole days are returned."""
    now = now or timezone.now()
    user = get_user_model().objects.select_for_update(no_key=True).get(pk=user.pk)  # as lock_user
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
