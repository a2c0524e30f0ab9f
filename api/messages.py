"""Private messages through the API, with the pages' rules: the same
service (``social.messages``) and the same per-account rate limit
(``RATE_LIMITS["message"]``, counted with the site's). Read with a ``read``
or ``play`` token; sent with ``play``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Path, Query, Router, Schema
from ninja.responses import Status

from api.auth import need
from api.models import SCOPE_PLAY, SCOPE_READ
from api.openapi import USERNAME, Body
from api.problems import ERRORS, Problem, ProblemOut
from common import ratelimit
from people.errors import PeopleError
from social import live, messages, reads
from social.models import MAX_LENGTH, Message

router = Router(tags=["messages"])

Username = Path(  # type: ignore[type-arg]
    ..., pattern=USERNAME, description="The other person's username."
)


class MessageOut(Schema):
    id: int = Field(description="The message's id (increasing over time).")
    sender: str = Field(description="Who wrote it (username).")
    text: str
    created_at: str


class ConversationOut(Schema):
    username: str = Field(description="The other person.")
    name: str = Field(description="Their display name.")
    unread: bool = Field(description="It has a message you have not read.")
    last_message: MessageOut | None


class ConversationsOut(Schema):
    unread: int = Field(description="How many conversations have a message you have not read.")
    conversations: list[ConversationOut] = Field(description="Newest first.")


class MessagesOut(Schema):
    username: str = Field(description="The other person.")
    messages: list[MessageOut] = Field(description="Oldest first.")
    next_before: int | None = Field(
        description="Pass as ?before= for the older page; null when there is none."
    )


class MessageIn(Body):
    text: str = Field(
        min_length=1,
        max_length=MAX_LENGTH,
        description="The message: at least one visible character, line breaks kept, no "
        "control, bidirectional or zero-width character.",
        # Only in the document: check_body is what refuses (422, saying why).
        json_schema_extra=lambda schema: schema.update(pattern=messages.body_pattern()),
    )


def _reader(request: HttpRequest) -> Any:
    """Reading one's messages takes a ``read`` token or a ``play`` one."""
    try:
        return need(request, SCOPE_READ)
    except Problem:
        return need(request, SCOPE_PLAY)


def _other(username: str) -> Any:
    from accounts.models import User

    other = User.objects.filter(username=username, is_active=True).first()
    if other is None:
        raise Problem(404, _("There is no such player."))
    return other


def message_entry(message: Message) -> dict[str, Any]:
    return {
        "id": message.pk,
        "sender": message.sender.username,
        "text": message.body,
        "created_at": message.created_at.isoformat(),
    }


def _refusal(exc: PeopleError) -> Problem:
    slug = {403: "refused", 404: "not-found"}.get(exc.status, "unprocessable")
    return Problem(exc.status, exc.message, slug=slug)


@router.get(
    "/me/conversations", response={200: ConversationsOut, **ERRORS}, summary="Your conversations"
)
def conversations(request: HttpRequest) -> dict[str, Any]:
    """Your private conversations, newest first, with their last message."""
    user = _reader(request)
    rows = reads.inbox_rows(user)
    return {
        "unread": reads.unread_count(user),
        "conversations": [
            {
                "username": row["other"].username,
                "name": row["other"].public_name,
                "unread": row["unread"],
                "last_message": message_entry(row["last"]) if row["last"] else None,
            }
            for row in rows
        ],
    }


@router.get(
    "/me/conversations/{username}",
    response={200: MessagesOut, 409: ProblemOut, **ERRORS},
    summary="Messages with someone",
)
def conversation(
    request: HttpRequest,
    username: str = Username,
    before: int | None = Query(  # type: ignore[type-arg]
        None, ge=1, le=2**62, description="Only messages older than this id."
    ),
) -> dict[str, Any]:
    """A page of the conversation, oldest first (50 at most). Reading the
    newest page marks the conversation read, as opening it on the site does."""
    user = _reader(request)
    other = _other(username)
    if other.pk == user.pk:
        raise Problem(409, _("You cannot write to yourself."), slug="yourself")
    found = reads.conversation_between(user, other)
    shown = reads.page_of(found, before=before) if found else []
    if found is not None and before is None and messages.do_mark_read(user, found):
        live.push_unread(user.pk)
    return {
        "username": other.username,
        "messages": [message_entry(m) for m in shown],
        "next_before": shown[0].pk if len(shown) >= reads.PAGE else None,
    }


@router.post(
    "/me/conversations/{username}",
    response={201: MessageOut, 403: ProblemOut, 404: ProblemOut, 409: ProblemOut, **ERRORS},
    summary="Send a message",
)
def send(request: HttpRequest, body: MessageIn, username: str = Username) -> Status[dict[str, Any]]:
    """Write to someone: refused (403) when they take no messages from you,
    or while your account is new and they do not follow you; 422 for text
    that is blank, too long, or holds control or invisible characters; 429
    past the per-account limit (the site's pages count toward it too)."""
    user = need(request, SCOPE_PLAY)
    other = _other(username)
    try:
        ratelimit.hit(request, "message")
    except ratelimit.RateLimited as exc:
        raise Problem(
            429,
            exc.message,
            slug="rate-limited",
            retry_after=exc.retry_after,
            headers={"Retry-After": str(exc.retry_after)},
        ) from None
    try:
        sent = messages.do_send_message(user, other, body.text)
    except PeopleError as exc:
        raise _refusal(exc) from None
    return Status(201, message_entry(sent))
