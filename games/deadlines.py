"""Deadline arithmetic: pure functions of times and settings, no database.

The services decide *which* decisions need a deadline; this module says
*when* each one falls. Times are aware datetimes passed in by the caller,
so the tests move the clock with time-machine and nothing here reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

from django.utils import timezone

from games import decisions

REMIND_FRACTION = 0.8


@dataclass(frozen=True)
class TimerSettings:
    turn_seconds: int
    time_bank_seconds: int = 0
    time_bank_increment_seconds: int = 0
    claim_window_seconds: int = 6 * 3600
    bid_window_seconds: int = 3600
    trade_expiry_seconds: int = 24 * 3600

    @classmethod
    def of(cls, game: object) -> TimerSettings:
        return cls(**{name: getattr(game, name) for name in cls.__dataclass_fields__})

    @property
    def uses_bank(self) -> bool:
        return self.time_bank_seconds > 0


def allowance(settings: TimerSettings, kind: str, bank: int | None = None) -> int:
    """Seconds a decision of ``kind`` gets when it arises (its entry's clock)."""
    clock = decisions.clock(kind)
    if clock == decisions.SHORT:
        # A short window: no longer than an auction's, nor than a turn.
        return min(settings.bid_window_seconds, settings.turn_seconds)
    if clock in (decisions.CLAIM_WINDOW, decisions.BID_WINDOW, decisions.TRADE_EXPIRY):
        seconds: int = getattr(settings, clock)
        return seconds
    if settings.uses_bank:
        return settings.time_bank_seconds if bank is None else bank
    return settings.turn_seconds


def bank_after_move(settings: TimerSettings, bank: int | None, used_seconds: float) -> int:
    """Board Game Arena style: spend the time used, earn the increment,
    never hold more than the base budget."""
    left = settings.time_bank_seconds if bank is None else bank
    left = max(0, left - int(used_seconds))
    return min(settings.time_bank_seconds, left + settings.time_bank_increment_seconds)


def start_of_clock(now: datetime, vacation_until: datetime | None) -> datetime:
    """A player's clock does not run while they are on vacation."""
    if vacation_until is not None and vacation_until > now:
        return vacation_until
    return now


def due_at(start: datetime, seconds: int) -> datetime:
    return start + timedelta(seconds=seconds)


def remind_at(start: datetime, due: datetime, fraction: float = REMIND_FRACTION) -> datetime:
    return start + (due - start) * fraction


def paused(due: datetime, now: datetime, until: datetime) -> datetime:
    """The deadline after a pause from ``now`` to ``until``: the time that was
    left is kept whole. A deadline already passed is not revived."""
    if due <= now or until <= now:
        return due
    return due + (until - now)


def resumed(due: datetime, now: datetime, until: datetime) -> datetime:
    """Undo the rest of a pause that ends early at ``now`` instead of ``until``."""
    if until <= now:
        return due
    return max(now, due - (until - now))


def vacation_days_left(*, per_year: int, used: int, used_year: int, year: int) -> int:
    return per_year if used_year != year else max(0, per_year - used)


def claim_closes_at(landed_at: datetime, window_seconds: int) -> datetime:
    """The wall-clock end of a rent-claim window. The engine closes it
    earlier when the book's throw limit passes; whichever comes first wins."""
    return landed_at + timedelta(seconds=window_seconds)


def seconds_left(due: datetime, now: datetime) -> int:
    return max(0, int((due - now).total_seconds()))


# The one way a deadline's moment is written: "Sun 29 Nov, 00:48 UTC",
# "Sun 29 Nov, 06:18 GMT+5:30". A page is written in its reader's zone (the
# active one), a push in UTC (rendered once for many readers), and
# static/js/countdown.js rewrites either on the reader's clock in this same
# shape, so a region swapped in by a push never flips between two formats.
def format_deadline(moment: datetime, zone: tzinfo | None = None) -> str:
    """``moment`` (aware) in ``zone``, by default Django's active zone."""
    at = moment.astimezone(zone or timezone.get_current_timezone())
    return f"{at:%a} {at.day} {at:%b}, {at:%H:%M} {_zone_label(at)}"


def _zone_label(at: datetime) -> str:
    """As browsers write a zone by its offset ("GMT+1"); UTC by name."""
    if getattr(at.tzinfo, "key", None) in ("UTC", "Etc/UTC") or at.tzinfo is UTC:
        return "UTC"
    offset = at.utcoffset() or timedelta(0)
    minutes = round(offset.total_seconds() / 60)
    if not minutes:
        return "GMT"
    hours, rest = divmod(abs(minutes), 60)
    return f"GMT{'+' if minutes > 0 else '-'}{hours}" + (f":{rest:02d}" if rest else "")


def describe_left(seconds: int) -> str:
    """``2d 3h``, ``4h 05m``, ``12m 30s``, ``45s``."""
    days, rest = divmod(max(0, seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"
