"""Beat's sweep (``tasks.sweep_tournaments``): the due rows whose time has
come, and the series whose next event is due. Each row is claimed with
``FOR UPDATE SKIP LOCKED`` and done in the transaction that does its work,
so two sweeps (or a sweep and the ETA shortcut) do it once, and a worker
killed half-way leaves it to the next sweep."""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.models import Game, Seat
from tournaments.errors import TournamentError
from tournaments.models import Due, Format, Result, Round, Series, Table, Tournament
from tournaments.scheduling import schedule_start
from tournaments.services.create import FIELDS, period
from tournaments.services.noshows import record_no_shows
from tournaments.services.results import record_game, void_table
from tournaments.services.rounds import close_registration, start_round

logger = logging.getLogger(__name__)


def due_ids(now: datetime | None = None, limit: int = 100) -> list[int]:
    """Open due rows whose time has come, earliest first (registration
    closing before a round at the same time): a range scan of the partial
    index on ``due_at``."""
    now = now or timezone.now()
    rows = Due.objects.filter(done_at=None, due_at__lte=now).order_by("due_at", "kind")
    return list(rows.values_list("pk", flat=True)[:limit])


def run_due(due_id: int) -> bool:
    """Do the due row's work, if it is still open and nobody else holds it.
    Returns whether it was done."""
    now = timezone.now()
    with transaction.atomic():
        due = (
            Due.objects.select_for_update(skip_locked=True)
            .filter(pk=due_id, done_at=None, due_at__lte=now)
            .first()
        )
        if due is None:
            return False
        due.attempts += 1
        try:
            with transaction.atomic():
                perform(due)
        except TournamentError as exc:
            # Decided, not failed (the event is over, say): nothing to retry.
            logger.info("Tournament due row %s: %s", due.key, exc)
        except Exception:
            # Retried, later each time (a killed worker records nothing: the
            # next sweep retries it at once).
            logger.exception("Tournament due row %s failed; it will be retried", due.key)
            due.due_at = timezone.now() + retry_delay(due.attempts)
            due.save(update_fields=["attempts", "due_at"])
            return False
        due.done_at = timezone.now()
        due.save(update_fields=["attempts", "done_at"])
    return True


def retry_delay(attempts: int) -> timedelta:
    """After a failure: a sweep's time, doubling, at most an hour."""
    return timedelta(seconds=min(3600, settings.TOURNAMENT_SWEEP_SECONDS * 2 ** min(attempts, 12)))


def perform(due: Due) -> None:
    if due.kind == Due.Kind.CLOSE_REGISTRATION:
        close_registration(tournament_id=due.tournament_id)
    elif due.kind == Due.Kind.START_ROUND:
        start_round(tournament_id=due.tournament_id, number=due.round_number)


# --- repair -------------------------------------------------------------------------


def repair(limit: int = 200) -> int:
    """What the games' subscriber missed (it failed, and was logged): a
    no-show seat not yet recorded, a finished table game whose results are
    not, a table whose game was deleted or abandoned (void: no points).
    Each is recorded once, under the event's lock."""
    done = 0
    unrecorded = Result.objects.filter(
        table__game_id=OuterRef("game_id"),
        entry__user_id=OuterRef("user_id"),
        kind=Result.Kind.PLAYED,
    )
    absent = (
        Seat.objects.filter(
            game__tournament_table__finished=False,
            game__takeover_on_first_timeout=True,
            taken_over=True,
            decisions_total=0,
            user__isnull=False,
        )
        .filter(Exists(unrecorded))
        .select_related("game")
        .order_by("game_id")[:limit]
    )
    for seat in absent:
        with transaction.atomic():
            done += record_no_shows(seat.game, [seat.user_id])  # type: ignore[list-item]
    ended = Game.objects.filter(
        tournament_table__finished=False, status=Game.Status.FINISHED
    ).order_by("pk")[:limit]
    for game in ended:
        with transaction.atomic():
            done += record_game(game)
    lost = Table.objects.filter(finished=False, round__status=Round.Status.RUNNING).filter(
        Q(game__isnull=True) | Q(game__status=Game.Status.ABANDONED)
    )
    for table_id in lost.order_by("pk").values_list("pk", flat=True)[:limit]:
        with transaction.atomic():
            done += void_table(table_id)
    return done


# --- series -------------------------------------------------------------------------

SITE_SERIES: dict[str, dict[str, Any]] = {
    "site-daily": {
        "name": "Daily table Swiss",
        "description": "The site's own event, every day: three rounds at tables of four.",
        "every": Series.Every.DAILY,
        "format": Format.SWISS,
        "rounds": 3,
        "table_size": 4,
        "table_min": 3,
        "table_max": 5,
        "turn_seconds": 12 * 3600,
        "cap_days": 3,
        "round_gap_seconds": 24 * 3600,
        "registration_seconds": 24 * 3600,
    },
    "site-weekly": {
        "name": "Weekly table Swiss",
        "description": "The site's own event, every week: five rounds at tables of four.",
        "every": Series.Every.WEEKLY,
        "format": Format.SWISS,
        "rounds": 5,
        "table_size": 4,
        "table_min": 3,
        "table_max": 5,
        "turn_seconds": 24 * 3600,
        "cap_days": 7,
        "round_gap_seconds": 7 * 24 * 3600,
        "registration_seconds": 3 * 24 * 3600,
    },
}


def first_site_time(now: datetime, every: str) -> datetime:
    """The next ``TOURNAMENT_SITE_HOUR`` (UTC) from now; a Monday's for weekly."""
    at = now.astimezone(dt.UTC).replace(
        hour=settings.TOURNAMENT_SITE_HOUR, minute=0, second=0, microsecond=0
    )
    while at <= now or (every == Series.Every.WEEKLY and at.weekday() != 0):
        at += timedelta(days=1)
    return at


def ensure_site_series(now: datetime | None = None) -> int:
    """The site's daily and weekly series exist (made once: ``key`` is
    unique). Returns how many were made."""
    if not settings.TOURNAMENT_SITE_EVENTS:
        return 0
    now = now or timezone.now()
    have = set(Series.objects.filter(key__in=SITE_SERIES).values_list("key", flat=True))
    made = 0
    for key, values in SITE_SERIES.items():
        if key in have:
            continue
        try:
            with transaction.atomic():
                Series.objects.create(
                    key=key, next_at=first_site_time(now, values["every"]), **values
                )
            made += 1
        except IntegrityError:
            pass  # another sweep made it
    return made


def due_series_ids(now: datetime | None = None) -> list[int]:
    now = now or timezone.now()
    rows = Series.objects.filter(active=True, next_at__lte=now).order_by("next_at")
    return list(rows.values_list("pk", flat=True)[:50])


def run_series(series_id: int, now: datetime | None = None) -> Tournament | None:
    """Make the series' due event (once: its ``series_slot`` is unique) and
    move ``next_at`` on."""
    now = now or timezone.now()
    with transaction.atomic():
        series = (
            Series.objects.select_for_update(skip_locked=True)
            .filter(pk=series_id, active=True, next_at__lte=now)
            .first()
        )
        if series is None:
            return None
        slot = f"series-{series.pk}-{series.next_at:%Y%m%d%H%M}"
        t = None
        if not Tournament.objects.filter(series_slot=slot).exists():
            values = {name: getattr(series, name) for name in FIELDS}
            t = Tournament.objects.create(
                **values,
                club_id=series.club_id,
                series=series,
                series_slot=slot,
                created_by_id=series.created_by_id,
                starts_at=series.next_at + timedelta(seconds=series.registration_seconds),
                seed=secrets.randbits(62),
                rounds_planned=series.rounds,
            )
            schedule_start(t)
        step = period(series.every)
        while series.next_at <= now:
            series.next_at += step
        series.save(update_fields=["next_at"])
    return t
