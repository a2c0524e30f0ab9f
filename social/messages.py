"""Private messages: who may write to whom, sending, reading.

``do_send_message`` is the only writer of messages. It refuses (a
``people.errors.PeopleError`` with words to show, nothing stored) before it
writes, and announces the message after the commit (``social.live``). Views
and the API count the sender's rate (``RATE_LIMITS["message"]``) first.
"""

from __future__ import annotations

import functools
import sys
import unicodedata
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils.translation import gettext as _

from common import text
from games.bot_accounts import is_bot_account
from games.newcomers import is_newcomer, newcomer_wait_words
from people.errors import NoSuchPerson, PeopleError, Refused, Yourself
from people.relations import check_may_message, follows
from social import live
from social.models import MAX_LENGTH, Conversation, Message
from social.reads import pair

# Characters that turn text around or hide in it: the bidirectional
# controls and the zero-width spaces. The zero-width joiners and the
# variation selectors stay: emoji are built with them.
_TURNING = frozenset(
    [0x061C, 0x200B, 0x200E, 0x200F, 0x2060, 0xFEFF, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)

# Controls, lone surrogates, and the line and paragraph separators (a line
# break is "\n", the one kept).
_REFUSED = frozenset({"Cc", "Cs", "Zl", "Zp"})


class MessageError(PeopleError):
    """A message that cannot be sent as written."""


def refused(ch: str) -> bool:
    """A character no message may hold (a line break is kept: CR becomes LF)."""
    return ch not in "\n\r" and (unicodedata.category(ch) in _REFUSED or ord(ch) in _TURNING)


@functools.cache
def body_pattern() -> str:
    """``check_body``'s rule as a regular expression, for the API's schema:
    only characters it keeps, at least one of them visible. Built from the
    same tests, once per process (a pass over every code point)."""
    kept: list[list[int]] = []
    shown: list[list[int]] = []
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        if 0xD800 <= code <= 0xDFFF or refused(ch):
            continue
        _extend(kept, code)
        if text.has_visible(ch):
            _extend(shown, code)
    return f"^[{_class(kept)}]*[{_class(shown)}][{_class(kept)}]*$"


def _extend(spans: list[list[int]], code: int) -> None:
    if spans and spans[-1][1] == code - 1:
        spans[-1][1] = code
    else:
        spans.append([code, code])


def _class(spans: list[list[int]]) -> str:
    """A character class's ranges, the BMP's escaped so that the pattern
    reads the same in any regex dialect."""

    def one(code: int) -> str:
        return f"\\u{code:04x}" if code < 0x10000 else chr(code)

    return "".join(one(a) if a == b else f"{one(a)}-{one(b)}" for a, b in spans)


def check_body(raw: str) -> str:
    """The body as stored, or ``MessageError``. Line breaks are kept (a
    textarea sends them as CR LF); every other control character is refused,
    never silently dropped, so the sender knows what went wrong."""
    body = (raw or "").replace("\r\n", "\n").replace("\r", "\n")
    # Before stripping: Python counts some control characters as spaces.
    for ch in body:
        if ch == "\x00":
            raise MessageError(_("Messages cannot contain NUL characters."))
        if refused(ch):
            raise MessageError(
                _(
                    "Messages cannot contain the invisible character %(char)s. Remove it and send again."
                )
                % {"char": text.describe(ch)}
            )
    body = body.strip()
    if not body:
        raise MessageError(_("Write something first."))
    if not text.has_visible(body):
        raise MessageError(_("Write something first: this message has no visible character."))
    if len(body) > MAX_LENGTH:
        raise MessageError(
            _("Keep it under %(max)d characters (this one has %(n)d).")
            % {"max": MAX_LENGTH, "n": len(body)}
        )
    return body


def check_may_send(sender: Any, recipient: Any) -> None:
    """Whether ``sender`` may write to ``recipient`` now (``PeopleError`` if
    not). A block reads as the recipient's privacy choice."""
    if not getattr(sender, "is_authenticated", False) or not sender.is_active:
        raise Refused(_("Your account cannot send messages."))
    if recipient is None or not recipient.is_active:
        raise NoSuchPerson(_("There is no such player."))
    if recipient.pk == sender.pk:
        raise Yourself(_("You cannot write to yourself."))
    if is_bot_account(sender):
        raise Refused(_("Bot accounts cannot send messages."))
    if is_bot_account(recipient):
        raise Refused(
            _("%(name)s is a bot account: it reads no messages.") % {"name": recipient.username}
        )
    check_may_message(sender, recipient)
    if is_newcomer(sender) and not follows(recipient, sender):
        raise Refused(
            _("For now you can write only to people who follow you.") + " " + newcomer_wait_words()
        )


def _conversation_for(a: Any, b: Any) -> Conversation:
    """The pair's conversation, made if need be, locked for this
    transaction. ``get_or_create`` takes the winner's row when two first
    messages race (the unique constraint refuses the loser's insert)."""
    low, high = pair(a.pk, b.pk)
    made, _created = Conversation.objects.get_or_create(low_id=low, high_id=high)
    return Conversation.objects.select_for_update().get(pk=made.pk)


def do_send_message(sender: Any, recipient: Any, body: str) -> Message:
    body = check_body(body)
    check_may_send(sender, recipient)
    with transaction.atomic():
        conversation = _conversation_for(sender, recipient)
        message = Message.objects.create(conversation=conversation, sender=sender, body=body)
        conversation.last_message_id = message.pk
        conversation.last_message_at = message.created_at
        # The sender has read their own words.
        side = "low_read_id" if conversation.low_id == sender.pk else "high_read_id"
        setattr(conversation, side, message.pk)
        conversation.save(update_fields=["last_message_id", "last_message_at", side])
        transaction.on_commit(lambda: _announce(message, recipient.pk))
    return message


def _announce(message: Message, recipient_pk: int) -> None:
    live.message_sent(message, recipient_pk)


def do_mark_read(user: Any, conversation: Conversation) -> bool:
    """Mark the conversation read up to its last message; True if it was unread."""
    if not conversation.has(user) or not conversation.is_unread(user.pk):
        return False
    side = "low_read_id" if conversation.low_id == user.pk else "high_read_id"
    # Never backwards: a stale read of the row must not unread a newer message.
    changed = Conversation.objects.filter(
        pk=conversation.pk, **{f"{side}__lt": F("last_message_id")}
    )
    return changed.update(**{side: Greatest(F(side), F("last_message_id"))}) > 0
