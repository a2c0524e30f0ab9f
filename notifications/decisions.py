"""Telling players about their decisions: "your turn", the 80% reminder and
the daily digest. Run by Celery tasks after a write has committed."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import deadlines as dl
from games import decisions
from games.models import Deadline, Game, Seat
from notifications import services


def _human_seats(game: Game) -> dict[int, Seat]:
    seats = game.seats.select_related("user").filter(
        user__isnull=False, status=Seat.Status.PLAYING, taken_over=False
    )
    return {s.number: s for s in seats}


def _url(game: Game) -> str:
    return f"{settings.SITE_URL}{game.get_absolute_url()}"


def your_turn(game_id: int) -> int:
    """Notify each human with a newly arisen decision still open; returns
    how many. Each decision's notice is claimed once (``notice_due``)."""
    from games.services.timers import claim_turn_notices

    # Claimed first: a game that ended meanwhile must not keep its notices
    # due, or the sweep would queue them for ever.
    claimed = claim_turn_notices(game_id)
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None or not claimed:
        return 0
    seats = _human_seats(game)
    sent = 0
    for d in claimed:
        seat = seats.get(d.player)
        if seat is None or d.kind == "time_limit":
            continue  # taken over or left since
        user = seat.user
        assert user is not None
        what = decisions.words(d.kind)
        text = f"Game {game.public_id}: you must {what} by {d.due_at:%Y-%m-%d %H:%M} UTC."
        note = services.notify(
            user.pk, game.pk, "your_turn", text, dedupe_key=f"turn:{d.pk}:{d.started_at:%s}"
        )
        if note is None:
            continue
        sent += 1
        if (
            user.email_notifications
            and d.kind not in decisions.NON_BLOCKING_KINDS
            and services.claim_email_slot(user.pk, game.pk)
            and services.email(
                user, f"Your move in game {game.public_id}", f"{text}\n\n{_url(game)}\n"
            )
        ):
            note.emailed = True
            note.save(update_fields=["emailed"])
    return sent


def reminder(deadline_id: int) -> bool:
    """The 80% reminder for one decision, sent at most once."""
    from games.services.timers import claim_reminder

    d = claim_reminder(deadline_id)
    if d is None or d.player < 0:
        return False
    seat = d.game.seats.select_related("user").filter(number=d.player).first()
    if seat is None or seat.user is None or seat.taken_over or not seat.user.notify_reminders:
        return False
    user = seat.user
    left = dl.describe_left(dl.seconds_left(d.due_at, timezone.now()))
    what = decisions.words(d.kind)
    text = f"Game {d.game.public_id}: {left} left to {what}."
    note = services.notify(user.pk, d.game_id, "reminder", text, dedupe_key=f"remind:{d.pk}")
    if note is not None and user.email_notifications:
        subject = f"Reminder: your move in game {d.game.public_id}"
        if services.email(user, subject, f"{text}\n\n{_url(d.game)}\n"):
            note.emailed = True
            note.save(update_fields=["emailed"])
    return note is not None


def local_now(user: Any, now: Any) -> Any:
    """``now`` on the user's clock (UTC when the stored zone is unknown)."""
    try:
        zone = zoneinfo.ZoneInfo(user.time_zone or "UTC")
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
            lines.append((d.due_at, f"- {d.game.public_id}: {left} left ({_url(d.game)})"))
    if not lines:
        return False
    key = f"digest:{user.pk}:{local_now(user, now):%Y-%m-%d}"
    note = services.notify(
        user.pk, None, "your_turn", f"{len(lines)} games await you.", dedupe_key=key
    )
    if note is None:
        return False
    body = "Games awaiting your move, soonest first:\n\n" + "\n".join(t for _, t in sorted(lines))
    return services.email(user, "Your games today", body + "\n")
