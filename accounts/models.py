from __future__ import annotations

import zoneinfo
from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser
from django.db import models, transaction

from accounts.claims import NameClaim, check_names, claim
from accounts.managers import UserManager
from accounts.names import NAME_FIELDS
from people.models import Audience

__all__ = ["NAME_FIELDS", "NameClaim", "User"]


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

    # Privacy (people.relations): who may challenge me, write to me, and chat
    # in my games; "no chat" hides every chat from me.
    challenge_from = models.CharField(
        max_length=10, choices=Audience.choices, default=Audience.EVERYONE
    )
    message_from = models.CharField(
        max_length=10, choices=Audience.choices, default=Audience.EVERYONE
    )
    chat_from = models.CharField(max_length=10, choices=Audience.choices, default=Audience.EVERYONE)
    no_chat = models.BooleanField(default=False)
    # Moderation standing (people.models.ModAction records why and by whom).
    chat_timeout_until = models.DateTimeField(null=True, blank=True)
    # Only the person themself sees their public chat lines.
    shadow_muted = models.BooleanField(default=False)
    rated_suspended = models.BooleanField(default=False)

    objects: ClassVar[UserManager] = UserManager()

    # The names as read from the database: a save claims the changed ones.
    _stored_names: dict[str, str]

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> User:
        user = super().from_db(db, field_names, values)
        user._stored_names = {f: user.__dict__[f] for f in NAME_FIELDS if f in user.__dict__}
        return user

    def changed_names(self) -> list[str]:
        """The name fields set since the row was read (all, for a new row)."""
        stored = getattr(self, "_stored_names", None)
        if self._state.adding or stored is None:
            return list(NAME_FIELDS)
        return [
            f
            for f in NAME_FIELDS
            if f in self.__dict__ and (f not in stored or stored[f] != self.__dict__[f])
        ]

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        # Also how a deferred field is loaded: what is read is what is stored.
        super().refresh_from_db(*args, **kwargs)
        fields = (
            kwargs.get("fields") if "fields" in kwargs else (args[1] if len(args) > 1 else None)
        )
        stored = self.__dict__.setdefault("_stored_names", {})
        for f in NAME_FIELDS:
            if (fields is None or f in fields) and f in self.__dict__:
                stored[f] = self.__dict__[f]

    def clean(self) -> None:
        super().clean()
        check_names(self, self.changed_names())

    def save(self, *args: Any, **kwargs: Any) -> None:
        changed = self.changed_names()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            changed = [f for f in changed if f in update_fields]
        if not changed:
            super().save(*args, **kwargs)
            return
        # One transaction: a name another account just claimed undoes the
        # save (a new account's row too).
        with transaction.atomic():
            super().save(*args, **kwargs)
            claim(self, changed)
        self._stored_names = {f: self.__dict__[f] for f in NAME_FIELDS if f in self.__dict__}

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.public_name
