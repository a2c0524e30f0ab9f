"""The navigation's unread count, kept live on every open page with a socket
(game, lobby, watch): each person's sockets join ``unread_group`` and get the
re-rendered link whenever a notice is stored or read.

Most notices go to people with no page open (that is what the email is for),
so the push is skipped unless one of their sockets said it is open: a counter
in the cache, raised on connect and lowered on disconnect, expiring on its
own if a server dies without lowering it.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string

from notifications.models import Notification

logger = logging.getLogger(__name__)

OPEN_TTL = 24 * 3600  # seconds a count of open sockets outlives its last change


def unread_group(user_pk: int) -> str:
    return f"user-{user_pk}-unread"


def _open_key(user_pk: int) -> str:
    return f"unread:sockets:{user_pk}"


def socket_opened(user_pk: int) -> None:
    key = _open_key(user_pk)
    if cache.add(key, 1, OPEN_TTL):
        return
    try:
        cache.incr(key)
        cache.touch(key, OPEN_TTL)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, OPEN_TTL)


def socket_closed(user_pk: int) -> None:
    key = _open_key(user_pk)
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # already gone (expired): nothing is open
        pass


def unread_count(user: Any) -> int:
    if not getattr(user, "is_authenticated", False) or not user.notify_in_site:
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def nav_link_html(unread: int, *, oob: bool) -> str:
    return render_to_string(
        "notifications/nav_link.html", {"unread_notifications": unread, "oob": oob}
    ).strip()


def push_unread(user_pk: int) -> bool:
    """Send the person's open pages their new unread count; False if none is
    open. Never raises: a lost push is corrected by the next page load."""
    from accounts.models import User
    from games.web import broadcast

    try:
        if not cache.get(_open_key(user_pk)):
            return False
        user = User.objects.filter(pk=user_pk).first()
        if user is None:
            return False
        html = nav_link_html(unread_count(user), oob=True)
        broadcast.send([(unread_group(user_pk), broadcast.live_message(html))])
    except Exception:
        logger.exception("could not push the unread count of user %s", user_pk)
        return False
    return True
