"""Telling players about their decisions: "your turn", the 80% reminder and
the daily digest. Run by Celery tasks after a write has committed."""

from __future__ import annotations

import zoneinfo
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from games import deadlines as dl
from games import decisions
from games.models import Deadline, Game, GameEvent, Seat
from notifications import push, services


def _human_seats(game: Game) -> dict[int, Seat]:
    seats = game.seats.select_related("user").filter(
        user__isnull=False, status=Seat.Status.PLAYING, taken_over=False
    )
    return {s.number: s for s in seats}


def _url(game: Game) -> str:
    return f"{settings.SITE_URL}{game.get_absolute_url()}"


def your_turn(game_id: int) -> int:
    """Bring the game's live "your move" notices up to date; returns how many
    it raised. Each decision due to be looked at (``notice_at``, claimed
    once) raises its player's notice for this game, updated in place, if no
    page or stream of theirs is in front of them (presence); if one is, it
    is looked at again a little later (``TURN_NOTICE_RECHECK_SECONDS``), so
    that leaving with the decision open still tells them. A player with no
    decision left in the game has theirs cleared."""
    from games.services.timers import claim_turn_notices, look_again

    # Claimed first: a game that ended meanwhile must not keep its notices
    # due, or the sweep would queue them for ever.
    claimed = claim_turn_notices(game_id)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    if game.status != Game.Status.ACTIVE:
        services.clear_turn_notices(game_id)
        return 0
    seats = _human_seats(game)
    waiting = set(
        Deadline.objects.filter(game_id=game_id, player__gte=0).values_list("player", flat=True)
    )
    services.clear_turn_notices(
        game_id, [s.user_id for n, s in seats.items() if n not in waiting and s.user_id]
    )
    looking = _looking(game_id)
    raised = 0
    later: list[int] = []
    for d in claimed:
        seat = seats.get(d.player)
        if seat is None or d.kind == decisions.TIME_LIMIT:
            continue  # taken over or left since
        user = seat.user
        assert user is not None
        services.plan_lead_reminders(user, d)
        if seat.number in looking:
            # At the game: nothing in the site or by email, and what an
            # earlier decision raised is stale now. Whether they are still
            # there is looked at again.
            services.clear_turn_notices(game_id, [user.pk])
            later.append(d.pk)
            continue
        text = f"Your move in game {game.public_id}: {decisions.words(d.kind)}."
        timed_out = _timer_played(game, seat)
        if timed_out:
            text = f"{timed_out} {text}"
        away = d.kind not in decisions.NON_BLOCKING_KINDS and (
            user.email_notifications or push.has_devices(user)
        )
        raised += services.raise_turn_notice(
            user.pk, game, text, due_at=d.due_at, email=away, deadline_id=d.pk
        )
    look_again(later, timezone.now() + timedelta(seconds=settings.TURN_NOTICE_RECHECK_SECONDS))
    return raised


def look_at_present(game_ids: list[int]) -> list[int]:
    """Beat's sweep's look at games with decisions due to be looked at
    (``timers.turn_notices_due``), before it queues their tasks: the rows
    of players still at the game (a visible page or an API stream) are put
    off a recheck period, as ``your_turn`` would do, without a task. The
    rows are not claimed: one a task claims meanwhile is left to it.
    Returns the games with a row left for ``your_turn`` (a player away, a
    seat no longer a person's, or presence unknown), in the given order."""
    if not game_ids:
        return []
    from games.services.timers import look_again
    from live import presence

    now = timezone.now()
    due = Deadline.objects.filter(game_id__in=game_ids, notice_at__lte=now)
    here = presence.looking_many(game_ids)
    put_off: list[int] = []
    present: set[tuple[int, int]] = set()
    left: set[int] = set()
    for pk, game_id, player in due.values_list("pk", "game_id", "player"):
        if player in here.get(game_id, ()):
            put_off.append(pk)
            present.add((game_id, player))
        else:
            left.add(game_id)
    later = now + timedelta(seconds=settings.TURN_NOTICE_RECHECK_SECONDS)
    look_again(put_off, later, if_due_by=now)
    # As ``your_turn`` does for whom it finds at the game: the page says it
    # all, so a "your move" notice raised while they were away goes.
    seated: dict[int, list[int]] = {}
    rows = Seat.objects.filter(game_id__in={g for g, _ in present}, user__isnull=False)
    for game_id, number, user_id in rows.values_list("game_id", "number", "user_id"):
        if (game_id, number) in present:
            seated.setdefault(game_id, []).append(user_id)
    for game_id, user_ids in seated.items():
        services.clear_turn_notices(game_id, user_ids)
    return [pk for pk in game_ids if pk in left]


def _timer_played(game: Game, seat: Seat) -> str:
    """ "The timer played Pass for you at 14:02 (CET)." for a player whose
    last decision the timer answered (none since of their own), on their
    clock; empty if they answered their last one themself."""
    if not seat.timeouts_in_row:
        return ""
    notes = GameEvent.objects.filter(
        game=game, kind="note", payload__source="timeout", payload__player=seat.number
    ).exclude(payload__kind__in=sorted(decisions.NON_BLOCKING_KINDS))
    note = notes.order_by("-seq").first()
    if note is None:
        return ""
    action = GameEvent.objects.filter(game=game, seq=note.seq, index=0, kind="action").first()
    if action is None:
        return ""
    local = local_now(seat.user, note.created_at)
    today = local.date() == local_now(seat.user, timezone.now()).date()
    at = f"{local:%H:%M}" if today else f"{local:%a %H:%M}"
    text = gettext("The timer played %(move)s for you at %(time)s (%(zone)s).") % {
        "move": decisions.played(str(action.payload.get("kind", ""))),
        "time": at,
        "zone": local.tzname(),
    }
    if seat.timeouts_in_row > 1:
        text += " " + gettext("That is %(count)d timeouts in a row.") % {
            "count": seat.timeouts_in_row
        }
    return text


def _looking(game_id: int) -> frozenset[int]:
    """The seats whose player has the game's page open and in front of them
    (nothing known: none)."""
    from live import presence

    return presence.looking(game_id) or frozenset()


def turn_email(note_id: int) -> bool:
    """Send a live notice's email, once, if its reader is still away."""
    note = services.claim_turn_email(note_id)
    if note is None or note.game is None:
        return False
    user = note.user
    if note.game.status != Game.Status.ACTIVE:
        return False
    seat = note.game.seats.filter(user=user).values_list("number", flat=True).first()
    if seat is not None and seat in _looking(note.game.pk):
        # Back at the game since: the page says it all. If they leave again
        # with the notice still up, that is a new away spell.
        services.put_off_turn_email(note.pk)
        return False
    return tell_away(
        user, f"Your move in game {note.game.public_id}", note.text, note.game, note.due_at
    )


def tell_away(user: Any, subject: str, text: str, game: Game, due_at: Any) -> bool:
    """Email (if the player wants it) and Web Push (to each device they
    subscribed) for a player away from the game; whether either went."""
    body = f"{text}\n{_by(user, due_at)}\n\n{_url(game)}\n"
    emailed = user.email_notifications and services.email(user, subject, body)
    pushed = push.send(user.pk, subject, f"{text} {_by(user, due_at)}", game.get_absolute_url())
    return bool(emailed or pushed)


def _by(user: Any, due_at: Any) -> str:
    """ "Decide by Fri 18:00 (CET), in 3 h 12 min." on the reader's clock."""
    if due_at is None:
        return ""
    local = local_now(user, due_at)
    left = dl.describe_left(dl.seconds_left(due_at, timezone.now()))
    return f"Decide by {local:%a %d %b %H:%M} ({local.tzname()}), in {left}."


def reminder(deadline_id: int) -> bool:
    """The 80% reminder for one decision, sent at most once."""
    from games.services.timers import claim_reminder

    d = claim_reminder(deadline_id)
    if d is None or d.player < 0:
        return False
    seat = d.game.seats.select_related("user").filter(number=d.player).first()
    if seat is None or seat.user is None or seat.taken_over or not seat.user.notify_reminders:
        return False
    return _remind(seat.user, d, f"remind:{d.pk}", away=d.player not in _looking(d.game_id))


def _remind(user: Any, d: Deadline, dedupe_key: str, *, away: bool) -> bool:
    """A reminder notice of ``d``'s time left, stored once under
    ``dedupe_key``; by email and push too when the player is ``away``."""
    left = dl.describe_left(dl.seconds_left(d.due_at, timezone.now()))
    text = f"Game {d.game.public_id}: {left} left to {decisions.words(d.kind)}."
    note = services.notify(
        user.pk, d.game.pk, "reminder", text, dedupe_key=dedupe_key, due_at=d.due_at
    )
    if note is not None and away:
        subject = f"Reminder: your move in game {d.game.public_id}"
        if tell_away(user, subject, text, d.game, d.due_at):
            note.emailed = True
            note.save(update_fields=["emailed"])
    return note is not None


def lead_reminder(reminder_id: int) -> bool:
    """A reminder the player asked for (``User.reminder_leads``), sent once,
    if its decision still stands and they are not at the game."""
    r = services.claim_lead_reminder(reminder_id)
    if r is None:
        return False
    d = Deadline.objects.select_related("game").filter(pk=r.deadline_id, due_at=r.due_at).first()
    if d is None or d.game.status != Game.Status.ACTIVE:
        return False  # decided, or the game moved its clock or ended
    seat = d.game.seats.select_related("user").filter(number=d.player, user=r.user_id).first()
    if seat is None or seat.user is None or seat.taken_over or seat.number in _looking(d.game.pk):
        return False
    return _remind(seat.user, d, f"lead:{r.pk}", away=True)


def local_now(user: Any, now: Any) -> Any:
    """``now`` on the user's clock: their chosen zone, else the one their
    browser last reported, else UTC."""
    try:
        zone = zoneinfo.ZoneInfo(user.time_zone or user.browser_time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return now.astimezone(zone)


# A digest not sent in its hour (beat or every worker down) still goes out
# later that morning: the per-day key keeps it to one.
DIGEST_CATCH_UP_HOURS = 3


def digest_due_zones(now: Any, hour: int) -> list[str]:
    """The time zones whose local time at ``now`` is within
    ``DIGEST_CATCH_UP_HOURS`` from ``hour``: the beat task runs every quarter
    hour, and each zone gets its digest once per local day."""
    return sorted(
        name
        for name in zoneinfo.available_timezones()
        if 0 <= now.astimezone(zoneinfo.ZoneInfo(name)).hour - hour < DIGEST_CATCH_UP_HOURS
    )


def digest(user: Any, now: Any = None) -> bool:
    """One email listing the games awaiting the user, soonest deadline first;
    at most one per day of the user's own calendar."""
    now = now or timezone.now()
    seats = Seat.objects.filter(
        user=user, status=Seat.Status.PLAYING, game__status=Game.Status.ACTIVE
    ).values_list("game_id", "number")
    lines = []
    for game_id, number in seats:
        d = (
            Deadline.objects.filter(game_id=game_id, player=number)
            .select_related("game")
            .order_by("due_at")
            .first()
        )
        if d is not None:
            left = dl.describe_left(dl.seconds_left(d.due_at, now))
            by = f"{local_now(user, d.due_at):%a %H:%M}"
            line = f"- {d.game.public_id}: by {by}, {left} left ({_url(d.game)})"
            lines.append((d.due_at, line))
    if not lines:
        return False
    key = f"digest:{user.pk}:{local_now(user, now):%Y-%m-%d}"
    note = services.notify(
        user.pk, None, "digest", f"{len(lines)} games await you.", dedupe_key=key
    )
    if note is None:
        return False
    body = "Games awaiting your move, soonest first:\n\n" + "\n".join(t for _, t in sorted(lines))
    return services.email(user, "Your games today", body + "\n")
