"""The navigation's unread count, kept live on every open page with a socket
(game, lobby, watch): each person's sockets join their group
(``live.groups.person_group``) and get the re-rendered link whenever a notice
is stored or read.

Most notices go to people with no page open (that is what the email is for),
so the push is skipped unless ``live.presence`` counts a socket of theirs open.
"""

from __future__ import annotations

import logging
from typing import Any

from django.template.loader import render_to_string

from live import groups, presence
from notifications.models import Notification

logger = logging.getLogger(__name__)


def unread_count(user: Any) -> int:
    if not getattr(user, "is_authenticated", False) or not user.notify_in_site:
        return 0
    # Games that wait for the person (one live notice each), plus notices of
    # no game (the digest).
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    games = unread.exclude(game=None).values("game_id").distinct().count()
    return games + unread.filter(game=None).count()


def nav_link_html(unread: int, *, oob: bool) -> str:
    return render_to_string(
        "notifications/nav_link.html", {"unread_notifications": unread, "oob": oob}
    ).strip()


def push_unread(user_pk: int) -> bool:
    """Send the person's open pages their new unread count; False if none is
    open. Never raises: a lost push is corrected by the next page load."""
    from accounts.models import User

    try:
        if not presence.person_online(user_pk):
            return False
        user = User.objects.filter(pk=user_pk).first()
        if user is None:
            return False
        html = nav_link_html(unread_count(user), oob=True)
        groups.send([(groups.person_group(user_pk), groups.live_message(html))])
    except Exception:
        logger.exception("could not push the unread count of user %s", user_pk)
        return False
    return True
