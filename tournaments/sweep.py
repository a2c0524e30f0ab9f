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
from django.utils import timezone

from tournaments.errors import TournamentError
from tournaments.models import Due, Format, Series, Tournament
from tournaments.scheduling import schedule_start
from tournaments.services.create import FIELDS, period
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
            logger.exception("Tournament due row %s failed; the next sweep retries", due.key)
            due.save(update_fields=["attempts"])
            return False
        due.done_at = timezone.now()
        due.save(update_fields=["attempts", "done_at"])
    return True


def perform(due: Due) -> None:
    if due.kind == Due.Kind.CLOSE_REGISTRATION:
        close_registration(tournament_id=due.tournament_id)
    elif due.kind == Due.Kind.START_ROUND:
        start_round(tournament_id=due.tournament_id, number=due.round_number)


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
