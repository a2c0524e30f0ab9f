from __future__ import annotations

import zoneinfo
from typing import ClassVar

from django.contrib.auth.models import AbstractUser
from django.db import models

from accounts.managers import UserManager


def time_zone_choices() -> list[tuple[str, str]]:
    zones = [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]
    return [("", "Automatic: my browser's"), *zones]


REMINDER_LEADS = [(1440, "24 hours"), (480, "8 hours"), (60, "1 hour"), (15, "15 minutes")]


def lead_minutes(user: object) -> list[int]:
    """The user's reminder lead times, in minutes, longest first."""
    raw = str(getattr(user, "reminder_leads", "") or "")
    known = {minutes for minutes, _ in REMINDER_LEADS}
    return sorted({int(x) for x in raw.split(",") if x.isdigit() and int(x) in known}, reverse=True)


def valid_zone(name: str | None) -> str | None:
    """``name`` if it is a time zone this machine knows, else None."""
    if not name or len(name) > 64:
        return None
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
    return name


class User(AbstractUser):
    display_name = models.CharField(max_length=40, blank=True)
    email_notifications = models.BooleanField(
        default=True, help_text="Email me when a game is waiting for my move."
    )
    # Blank: the zone the person's browser reports (``browser_time_zone``).
    time_zone = models.CharField(max_length=64, default="", blank=True)
    browser_time_zone = models.CharField(max_length=64, default="", blank=True, editable=False)
    notify_reminders = models.BooleanField(
        default=True, help_text="Remind me when 80% of a decision's time has passed."
    )
    notify_in_site = models.BooleanField(default=True, help_text="Show notifications on the site.")
    # Extra reminders this many minutes before each deadline ("480,60"),
    # besides the 80% alarm.
    reminder_leads = models.CharField(max_length=40, default="", blank=True)
    notify_digest = models.BooleanField(
        default=False, help_text="Email me a daily digest of games awaiting me."
    )
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    # A bot account plays only through the API (with a ``bot`` token), wears
    # a BOT badge, and is rated among bot accounts unless a game's host lets
    # bot accounts into a game rated with people (docs/api.md).
    bot_account = models.BooleanField(default=False)

    objects: ClassVar[UserManager] = UserManager()

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.public_name
