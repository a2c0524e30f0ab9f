"""What the inbox shows: a person's conversations, their messages, and how
many are unread. Reads only (``social.messages`` writes)."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q, QuerySet

from social.models import Conversation, Message

PAGE = 50


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def conversation_between(a: Any, b: Any) -> Conversation | None:
    low, high = pair(a.pk, b.pk)
    return Conversation.objects.filter(low_id=low, high_id=high).first()


def conversations_of(user: Any) -> QuerySet[Conversation]:
    """The user's conversations that have a message, newest first."""
    return (
        Conversation.objects.filter(Q(low_id=user.pk) | Q(high_id=user.pk))
        .exclude(last_message_id=0)
        .select_related("low", "high")
        .order_by("-last_message_at", "-pk")
    )


def _unread(user_pk: int) -> Q:
    return Q(low_id=user_pk, last_message_id__gt=F("low_read_id")) | Q(
        high_id=user_pk, last_message_id__gt=F("high_read_id")
    )


def unread_count(user: Any) -> int:
    """How many conversations have a message the user has not read."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Conversation.objects.filter(_unread(user.pk)).count()


def inbox_rows(user: Any, limit: int = 100) -> list[dict[str, Any]]:
    """Each conversation with the other person, its last message and whether
    it is unread, newest first."""
    rows = list(conversations_of(user)[:limit])
    lasts = Message.objects.in_bulk([c.last_message_id for c in rows])
    out = []
    for conversation in rows:
        other = conversation.high if conversation.low_id == user.pk else conversation.low
        out.append(
            {
                "conversation": conversation,
                "other": other,
                "last": lasts.get(conversation.last_message_id),
                "unread": conversation.is_unread(user.pk),
            }
        )
    return out


def page_of(
    conversation: Conversation, *, before: int | None = None, limit: int = PAGE
) -> list[Message]:
    """Up to ``limit`` messages older than message ``before`` (the newest if
    None), oldest first."""
    rows = Message.objects.filter(conversation=conversation).select_related("sender")
    if before is not None:
        rows = rows.filter(pk__lt=before)
    return list(reversed(rows.order_by("-pk")[:limit]))


def newer_than(conversation: Conversation, after: int) -> list[Message]:
    return list(
        Message.objects.filter(conversation=conversation, pk__gt=after)
        .select_related("sender")
        .order_by("pk")[:PAGE]
    )
