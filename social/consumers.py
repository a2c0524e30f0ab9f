"""``/ws/inbox/`` and ``/ws/inbox/<username>/``: the inbox and one
conversation, kept live for the signed-in person.

Only the person's own sockets hear their inbox group (``social.live``), and
the events carry ids only: each socket reads what is new in its own
person's conversations and renders it for them. A socket sends the whole
list (or the conversation's latest page) when it connects, and on a
``{"type": "resync"}`` frame, so a page that reconnects has missed nothing;
after that it sends only messages newer than the last it sent, so a
repeated event sends nothing twice. Like the game sockets it also carries
the person's unread counts (``live.groups.person_group``) and ends with
the session that opened it (``live.sessions``).
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string

from common import redis_health
from live import groups, presence, sessions
from live.consumers import CLOSE_BAD_FRAME, CLOSE_REFUSED, ForwardingMixin
from social import live, messages, reads
from social.models import Conversation

MAX_FRAME = 256
LIVE = "<!--live-->"


def _csrf_token(scope: dict[str, Any]) -> str:
    """A masked CSRF token for the forms of pushed messages (report, block):
    the page's cookie secret, masked afresh as a page render would."""
    secret = (scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME, "")
    request = HttpRequest()
    if secret:
        request.META["CSRF_COOKIE"] = secret
    return get_token(request)


def _is_frame(text_data: str | None, bytes_data: bytes | None) -> str | None:
    if bytes_data is not None or text_data is None or len(text_data) > MAX_FRAME:
        return None
    try:
        frame = json.loads(text_data)
    except ValueError:
        return None
    if not isinstance(frame, dict) or frame.get("type") not in ("resync", "ping", "visibility"):
        return None
    return str(frame["type"])


def _other(user: Any, username: str) -> Any:
    from accounts.models import User

    other = User.objects.filter(username=username, is_active=True).first()
    return None if other is None or other.pk == user.pk else other


class InboxConsumer(ForwardingMixin, AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no stubs
    groups: list[str]
    other: Any = None
    last_sent = 0  # the newest message this socket has shown
    csrf = ""

    async def connect(self) -> None:
        self.groups = []
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            await self.close(code=CLOSE_REFUSED)  # before accept: the handshake is refused
            return
        username = self.scope["url_route"]["kwargs"].get("username")
        if username is not None:
            self.other = await database_sync_to_async(_other)(user, username)
            if self.other is None:
                await self.close(code=CLOSE_REFUSED)
                return
        self.csrf = _csrf_token(self.scope)
        wanted = [live.inbox_group(user.pk), groups.person_group(user.pk)]
        wanted += sessions.groups_for(self.scope)
        try:
            with redis_health.guarded():
                await database_sync_to_async(presence.person_connected)(user.pk)
                self.groups = wanted
                for group in self.groups:
                    await self.channel_layer.group_add(group, self.channel_name)
        except redis_health.ERRORS:
            await self._leave()
            with contextlib.suppress(Exception):
                await self.accept()
            await self.close(code=4503)
            return
        await self.accept()
        await self.send_snapshot()

    async def _leave(self) -> None:
        joined, self.groups = self.groups, []
        for group in joined:
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(group, self.channel_name)
        user = self.scope.get("user")
        if joined and getattr(user, "is_authenticated", False):
            with contextlib.suppress(Exception):
                await database_sync_to_async(presence.person_disconnected)(user.pk)

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        kind = _is_frame(text_data, bytes_data)
        if kind is None:
            await self.close(code=CLOSE_BAD_FRAME)
        elif kind == "resync" and not self.ended:
            await self.send_snapshot()

    async def send_snapshot(self) -> None:
        html = await database_sync_to_async(self.snapshot_html)()
        await self.send(text_data=LIVE + html)

    def snapshot_html(self) -> str:
        user = self.scope["user"]
        if self.other is None:
            return render_to_string(
                "social/inbox_list.html", {"rows": reads.inbox_rows(user), "oob": True}
            )
        conversation = reads.conversation_between(user, self.other)
        shown = reads.page_of(conversation) if conversation else []
        self.last_sent = max([self.last_sent, *(m.pk for m in shown)])
        if conversation is not None and messages.do_mark_read(user, conversation):
            live.push_unread(user.pk)
        return render_to_string(
            "social/messages.html",
            self.context(thread=shown, oob=True),
        )

    def context(self, **extra: Any) -> dict[str, Any]:
        return {"viewer": self.scope["user"], "other": self.other, "csrf_token": self.csrf, **extra}

    # --- group messages -------------------------------------------------------

    async def inbox_message(self, event: dict[str, Any]) -> None:
        if self.ended:
            return
        html = await database_sync_to_async(self.news_html)(event["conversation"])
        if html and not self.ended:
            await self.send(text_data=LIVE + html)

    def news_html(self, conversation_pk: int) -> str:
        user = self.scope["user"]
        conversation = Conversation.objects.filter(pk=conversation_pk).first()
        if conversation is None or not conversation.has(user):
            return ""
        if self.other is None:
            return render_to_string(
                "social/inbox_list.html", {"rows": reads.inbox_rows(user), "oob": True}
            )
        if conversation.other_id(user.pk) != self.other.pk:
            return ""
        new = reads.newer_than(conversation, self.last_sent)
        if not new:
            return ""  # a repeated event: shown already
        self.last_sent = new[-1].pk
        # Open in front of its reader: read as it arrives.
        if messages.do_mark_read(user, conversation):
            live.push_unread(user.pk)
        return render_to_string("social/message_append.html", self.context(thread=new))
