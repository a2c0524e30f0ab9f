"""A new account's limits: until it is ``NEWCOMER_DAYS`` old and has finished
``NEWCOMER_GAMES`` games, it may write only to people who follow it, and
post no links in any chat (as Board Game Arena holds back new accounts).
Bots and timers are never held back; staff neither."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Seat

# A scheme, a "www." host, or a bare domain with a common top-level name.
LINK = re.compile(
    r"(?i)\b(?:[a-z][a-z0-9+.-]*://|www\.|[a-z0-9-]+(?:\.[a-z0-9-]+)*"
    r"\.(?:com|net|org|io|gg|co|ly|me|tv|info|biz|xyz|ru|de|uk|app|dev|link|site|online)\b)"
)


def finished_games(user: Any) -> int:
    return Seat.objects.filter(user_id=user.pk, game__status=Game.Status.FINISHED).count()


def is_newcomer(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False) or user.is_staff:
        return False
    young = user.date_joined > timezone.now() - timedelta(days=settings.NEWCOMER_DAYS)
    return young or finished_games(user) < settings.NEWCOMER_GAMES


def newcomer_wait_words() -> str:
    return _(
        "New accounts can do this once they are %(days)d days old and have finished "
        "%(games)d games."
    ) % {"days": settings.NEWCOMER_DAYS, "games": settings.NEWCOMER_GAMES}


def has_link(body: str) -> bool:
    return LINK.search(body) is not None
