""" "Tell me when they start a game": when a public game starts, each
follower with the bell on of each seated person hears of it, once a day (on
the follower's clock) per person followed (the day's notice is pointed at
the latest game rather than repeated). Not the followers who sit in the game themselves,
nor those the seated person has blocked. A private game is never told.

It follows the notices' rules: a stored notice (whose unread count is
pushed to open pages), and Web Push only to a follower with no page open."""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import valid_zone
from common import redis_health
from games.models import Game
from games.services.subscribers import Subscriber
from games.services.write import Committed
from live import presence
from notifications import push
from notifications.models import Notification
from notifications.services import notify
from people.models import Block, Follow

logger = logging.getLogger(__name__)

KIND = Notification.Kind.FOLLOWED_STARTED


def _started(record: Committed) -> bool:
    return record.game.status == Game.Status.ACTIVE and any(
        event.kind == "start" and event.index == 0 for event in record.events
    )


def on_commit(record: Committed) -> None:
    if not _started(record) or not record.game.is_public:
        return
    seats = record.seats if record.seats is not None else list(record.game.seats.all())
    seated = [seat.user_id for seat in seats if seat.user_id is not None]
    if seated:
        tell_followers(record.game, seated)


def bell_rows(seated: list[int]) -> list[Follow]:
    """The follows with the bell on of the people seated, minus the
    followers who sit in the game and those the followed person blocked."""
    blocked_by_followed = Block.objects.filter(
        blocker_id=OuterRef("followed_id"), blocked_id=OuterRef("follower_id")
    )
    return list(
        Follow.objects.filter(followed_id__in=seated, bell=True, follower__is_active=True)
        .exclude(follower_id__in=seated)
        .exclude(Exists(blocked_by_followed))
        .select_related("followed", "follower")
    )


def follower_day(follower: Any, now: Any) -> str:
    """The date on the follower's own clock (their chosen zone, else their
    browser's, else UTC): "once a day" is their day."""
    name = valid_zone(follower.time_zone) or valid_zone(follower.browser_time_zone)
    zone = zoneinfo.ZoneInfo(name) if name else dt.UTC
    return str(now.astimezone(zone).date().isoformat())


def tell_followers(game: Game, seated: list[int]) -> int:
    """Notify each bell follower (once a day per person followed); how many
    new notices were stored."""
    now = timezone.now()
    url = game.get_absolute_url()
    told = 0
    for row in bell_rows(seated):
        day = follower_day(row.follower, now)
        name = row.followed.public_name
        text = _("%(name)s started a game: %(game)s. Watch it.") % {
            "name": name,
            "game": game.public_id,
        }
        key = f"{KIND}:{row.follower_id}:{row.followed_id}:{day}"
        note = notify(row.follower_id, None, KIND, text, url=url, dedupe_key=key)
        if note is None:
            # Told today already: the day's notice now leads to the latest game.
            later = _("%(name)s started another game today: %(game)s. Watch it.") % {
                "name": name,
                "game": game.public_id,
            }
            Notification.objects.filter(dedupe_key=key).update(text=later[:300], url=url)
            continue
        told += 1
        _web_push(row.follower_id, name, text, url)
    return told


def _web_push(user_id: int, name: str, text: str, url: str) -> None:
    """Web Push to a follower away from the site (with a page open, the
    unread count already told them)."""
    if not push.enabled() or presence.person_online(user_id):
        return
    from social.tasks import push_bell

    title = _("%(name)s started a game") % {"name": name}
    try:
        with redis_health.guarded():
            push_bell.delay(user_id, title, text, url)
    except Exception:
        logger.exception("Could not enqueue the bell push to user %s", user_id)


SUBSCRIBER = Subscriber("bell", on_commit=on_commit)


def subscribe_bell(**_kwargs: Any) -> None:
    from games.services.subscribers import subscribe

    subscribe(SUBSCRIBER)
