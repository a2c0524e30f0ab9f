"""``/ws/tournaments/<id>/``: an event's page kept live (``tournaments.live``).

Read only, like the game sockets (``live.consumers``): anyone who may see
the event's page may listen (a club's members-only event is refused to
everyone else, as its page is a 404 to them); a signed-in account's
sockets count towards ``SOCKETS_PER_ACCOUNT``; the socket ends with the
session that opened it. It sends a snapshot on connect and on
``{"type": "resync"}``; ``{"type": "resync", "since": N}`` (the page's
heartbeat) is answered only if the event is past version N. Pushes no
newer than what the socket last sent are dropped. A signed-in viewer's own
box (their next game, Join or Withdraw) follows a push when their next game
changed. Any other frame closes it.
"""

from __future__ import annotations

import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from common import redis_health
from live import sessions
from live.consumers import (
    CLOSE_BAD_FRAME,
    CLOSE_REFUSED,
    ForwardingMixin,
    accepted_frame,
    discard_all,
    try_again_later,
)
from live.socket_cap import CappedSocket
from tournaments import errors, live, pages

RESYNC_INTERVAL = 1.0  # seconds: a snapshot costs a render, at most one a second


def _may_listen(tournament_id: int, user: Any) -> bool:
    try:
        pages.access_tournament(tournament_id, user)
    except errors.TournamentNotFound:
        return False
    return True


class TournamentConsumer(ForwardingMixin, CappedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no stubs
    groups: list[str]
    tournament_id = 0
    version = -1  # the newest version this socket has sent
    # A signed-in viewer's next game as their page shows it: their own box
    # is sent again when it changes (a round started, their game ended).
    next_game: int | None = None
    last_snapshot = 0.0

    async def connect(self) -> None:
        self.groups = []
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        if not await database_sync_to_async(_may_listen)(self.tournament_id, user):
            await self.close(code=CLOSE_REFUSED)  # before accept: the handshake is refused
            return
        if not await self.claim_place():  # SOCKETS_PER_ACCOUNT
            return
        wanted = [live.group(self.tournament_id), *sessions.groups_for(self.scope)]
        try:
            with redis_health.guarded():
                for name in wanted:
                    await self.channel_layer.group_add(name, self.channel_name)
                    self.groups.append(name)
        except redis_health.ERRORS:
            await discard_all(self, self.groups)
            self.groups = []
            await try_again_later(self)
            return
        if getattr(user, "is_authenticated", False):
            self.next_game = await database_sync_to_async(pages.next_game_pk)(
                self.tournament_id, user
            )
        await self.accept()
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        await self.free_place()
        await discard_all(self, getattr(self, "groups", []))
        self.groups = []

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = accepted_frame(text_data, bytes_data)
        if frame is None:
            await self.close(code=CLOSE_BAD_FRAME)
            return
        if frame["type"] != "resync" or self.ended:
            return
        if time.monotonic() < self.last_snapshot + RESYNC_INTERVAL:
            return
        since = frame.get("since")
        if since is not None:
            current = await database_sync_to_async(live.current_version)(self.tournament_id)
            if current is not None and current <= since:
                return  # the heartbeat of a page that is up to date
        await self.send_snapshot()

    async def send_snapshot(self) -> None:
        self.last_snapshot = time.monotonic()
        found = await database_sync_to_async(live.snapshot)(self.tournament_id)
        if found is None:
            return
        version, html = found
        self.version = max(self.version, version)
        await self.send(text_data=html)

    async def live_push(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if self.ended or (version is not None and version <= self.version):
            return  # in the snapshot already, or a duplicate
        if version is not None:
            self.version = version
        await self.send(text_data=event["html"])
        user = self.scope.get("user")
        if getattr(user, "is_authenticated", False):
            game = await database_sync_to_async(pages.next_game_pk)(self.tournament_id, user)
            if game != self.next_game and not self.ended:
                self.next_game = game
                box = await database_sync_to_async(pages.entry_box)(self.tournament_id, user)
                await self.send(text_data="<!--live-->" + box)
