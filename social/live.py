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

from django.template.loader import render_to_string

from live import groups, presence
from social import reads
from social.models import Message

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
    push_unread(recipient_pk)
    try:
        event: dict[str, Any] = {
            "type": "inbox.message",
            "conversation": message.conversation_id,
            "message": message.pk,
        }
        groups.send([(inbox_group(message.sender_id), event), (inbox_group(recipient_pk), event)])
    except Exception:
        logger.exception("could not push message %s", message.pk)
