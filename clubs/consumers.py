"""``/ws/clubs/<slug>/chat``: a club's chat, live for its members.

Members only: anyone else's handshake is refused. The socket sends the pane
when it connects (so a page that reconnects has missed nothing), then each
new line its viewer sees (``live.chatview``: never a blocked or muted
author's), and the pane afresh when the chat changes otherwise (a line
deleted, a member muted, someone leaving: ``clubs.live``) or when its viewer
blocks or mutes someone (``chat.refresh``, ``live.apps``). A viewer who is
no longer a member is shut out at the next change. Counted among the
account's sockets (``live.socket_cap``); ends with its session
(``live.sessions``), as every socket of the site does.
"""

from __future__ import annotations

import re
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from clubs import chatpane, live
from clubs.models import Club, Membership
from common import redis_health
from live import sessions
from live.chatview import EVERYONE, ChatView, chat_view
from live.consumers import (
    CLOSE_BAD_FRAME,
    CLOSE_REFUSED,
    ForwardingMixin,
    discard_all,
    parse_frame,
    person_closed,
    person_groups,
    try_again_later,
)
from live.socket_cap import CappedSocket

LIVE = "<!--live-->"
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,40}")


def _member_of(slug: str, user: Any) -> tuple[int, bool] | None:
    """The club's pk and whether ``user`` leads it; None unless a member."""
    if not SLUG.fullmatch(slug):
        return None  # the route takes any text; a slug is letters, digits, - and _
    club = Club.objects.filter(slug=slug).only("pk").first()
    row = chatpane.membership(club.pk, user) if club is not None else None
    if club is None or row is None:
        return None
    return club.pk, row.role == Membership.Role.LEADER


def _standing(club_pk: int, user: Any) -> bool | None:
    """Whether ``user`` leads the club now; None if no longer a member."""
    row = chatpane.membership(club_pk, user)
    return None if row is None else row.role == Membership.Role.LEADER


class ClubChatConsumer(ForwardingMixin, CappedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no stubs
    groups: list[str]
    club_pk: int | None = None
    leader = False
    view: ChatView = EVERYONE

    async def connect(self) -> None:
        self.groups = []
        user = self.scope.get("user")
        found = None
        if getattr(user, "is_authenticated", False):
            slug = self.scope["url_route"]["kwargs"]["slug"]
            found = await database_sync_to_async(_member_of)(slug, user)
        if found is None:
            await self.close(code=CLOSE_REFUSED)  # before accept: the handshake is refused
            return
        if not await self.claim_place():  # SOCKETS_PER_ACCOUNT
            return
        self.club_pk, self.leader = found
        self.view = await database_sync_to_async(chat_view)(user, seated=False)
        wanted = [live.chat_group(self.club_pk), *sessions.groups_for(self.scope)]
        try:
            with redis_health.guarded():
                wanted += await person_groups(user)
                self.groups = wanted
                for group in wanted:
                    await self.channel_layer.group_add(group, self.channel_name)
        except redis_health.ERRORS:
            await self._leave()
            await try_again_later(self)
            return
        await self.accept()
        await self.send_pane()

    async def _leave(self) -> None:
        joined, self.groups = self.groups, []
        await discard_all(self, joined)
        if joined:
            await person_closed(self.scope.get("user"))

    async def disconnect(self, code: int) -> None:
        await self.free_place()
        await self._leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        kind = parse_frame(text_data, bytes_data)
        if kind is None:
            await self.close(code=CLOSE_BAD_FRAME)
        elif kind == "resync" and not self.ended:
            await self.send_pane()

    async def send_pane(self) -> None:
        assert self.club_pk is not None
        html = await database_sync_to_async(chatpane.pane_html)(
            self.club_pk, self.scope["user"], self.view
        )
        await self.send(text_data=LIVE + html)

    # --- group messages -------------------------------------------------------

    async def club_line(self, event: dict[str, Any]) -> None:
        """A new line: to this viewer if they see its author, with the
        controls their part in the club gives them."""
        if self.ended or not self.view.shows(event["author"]):
            return
        if event["author"] == self.view.viewer_id:
            html = event["own"]
        else:
            html = event["leader"] if self.leader else event["member"]
        await self.send(text_data=LIVE + html)

    async def club_refresh(self, event: dict[str, Any]) -> None:
        """The chat or the members changed: still a member? Then the pane afresh."""
        if self.ended or self.club_pk is None:
            return
        standing = await database_sync_to_async(_standing)(self.club_pk, self.scope["user"])
        if standing is None:
            await self.end(CLOSE_REFUSED)
            return
        self.leader = standing
        await self.send_pane()

    async def chat_refresh(self, message: dict[str, Any]) -> None:
        """Its viewer blocked, muted or let someone back (``live.apps``)."""
        if self.ended or self.club_pk is None:
            return
        self.view = await database_sync_to_async(chat_view)(self.scope["user"], seated=False)
        await self.send_pane()
