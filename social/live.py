"""Messages over the socket: a new message reaches the inbox sockets of its
two people only, and the recipient's unread count every open page of theirs.

Only ids travel through the channel layer (``inbox.message``): each inbox
socket reads and renders what is new for its own person
(``social.consumers``), so a message's words never reach a group anyone
else listens on. Never raises: a lost push is made good by the socket's
next connect, which sends everything afresh.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from common import redis_health
from live import groups, presence
from notifications import push
from social import reads
from social.models import Message
from social.tasks import push_message

logger = logging.getLogger(__name__)


def inbox_group(user_pk: int) -> str:
    """The person's inbox sockets (the inbox and its conversations)."""
    return f"user-{user_pk}-inbox"


def nav_link_html(unread: int, *, oob: bool) -> str:
    return render_to_string(
        "social/nav_inbox.html", {"unread_conversations": unread, "oob": oob}
    ).strip()


def push_unread(user_pk: int) -> bool:
    """Send the person's open pages their count of unread conversations;
    False if none is open."""
    from accounts.models import User

    try:
        if not presence.person_online(user_pk):
            return False
        user = User.objects.filter(pk=user_pk).first()
        if user is None:
            return False
        html = nav_link_html(reads.unread_count(user), oob=True)
        groups.send([(groups.person_group(user_pk), groups.live_message(html))])
    except Exception:
        logger.exception("could not push the unread messages count of user %s", user_pk)
        return False
    return True


def message_sent(message: Message, recipient_pk: int) -> None:
    # The count first: an open conversation that marks the message read
    # pushes the count again, and that one must arrive last.
    if not push_unread(recipient_pk):
        tell_away(message, recipient_pk)
    try:
        event: dict[str, Any] = {
            "type": "inbox.message",
            "conversation": message.conversation_id,
            "message": message.pk,
        }
        groups.send([(inbox_group(message.sender_id), event), (inbox_group(recipient_pk), event)])
    except Exception:
        logger.exception("could not push message %s", message.pk)


# One Web Push per conversation in this long, however many lines follow:
# a conversation in full flow must not buzz a phone at every line.
AWAY_PUSH_QUIET_SECONDS = 15 * 60


def tell_away(message: Message, recipient_pk: int) -> bool:
    """Web Push "a message from X" to a recipient with no page open (where
    push is enabled). The words stay off the lock screen: only who wrote."""
    if not push.enabled():
        return False
    key = f"inbox-push:{recipient_pk}:{message.conversation_id}"
    try:
        with redis_health.guarded():
            if not cache.add(key, 1, timeout=AWAY_PUSH_QUIET_SECONDS):
                return False
            sender = message.sender
            title = _("A message from %(name)s") % {"name": sender.public_name}
            body = _("%(name)s wrote to you. Open your inbox to read it.") % {
                "name": sender.public_name
            }
            url = reverse("conversation", kwargs={"username": sender.username})
            push_message.delay(recipient_pk, title, body, url)
    except Exception:
        logger.exception("could not enqueue the message push to user %s", recipient_pk)
        return False
    return True
