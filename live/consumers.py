"""Read-only WebSocket consumers: they authorise, join groups and forward.

Nothing here writes a game: moves go over HTTP to ``games.services``. The
only frames a client may send are ``{"type": "resync"}`` (answered with a
fresh snapshot), ``{"type": "resync", "since": N}`` (the same, unless the
game is still at version N: a page's heartbeat, ``static/js/live.js``) and
``{"type": "ping"}``; anything else closes that socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from common import redis_health
from games import access
from live import broadcast, chat, estimating, fanout, groups, presence, sessions
from live.chatview import EVERYONE, ChatView, chat_view
from live.socket_cap import CappedSocket

logger = logging.getLogger(__name__)

MAX_FRAME = 256  # characters; the longest legal frame is a few dozen
CLOSE_REFUSED = 4403
CLOSE_SESSION_ENDED = sessions.CLOSE_SESSION_ENDED  # logged out: the page reloads
CLOSE_BAD_FRAME = 4400
# Redis (the channel layer, presence, the fan-out) does not answer: "try
# again later", which the page's socket retries with backoff and, once
# connected, gets a fresh snapshot (static/js/live.js). Not the standard
# 1013, which Daphne (autobahn) does not let a server send.
CLOSE_TRY_AGAIN_LATER = 4503
UNAVAILABLE = "Live updates are unavailable for a moment; reconnecting."
RESYNC_INTERVAL = 1.0  # seconds


class ForwardingMixin:
    ended = False  # told to close: nothing more goes out

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        except redis_health.ERRORS as exc:
            # The channel layer lost Redis: this socket can hear nothing
            # more. Closed for a retry rather than failed (1011).
            if not isinstance(exc, redis_health.RedisDown):
                redis_health.failed(exc)
            logger.warning("A live socket lost Redis (%s); closed with try-again-later", exc)
            with contextlib.suppress(Exception):
                await self.disconnect(CLOSE_TRY_AGAIN_LATER)  # type: ignore[attr-defined]
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})

    async def session_end(self, message: dict[str, Any]) -> None:
        """The session (or every session of the user) this socket was
        opened with has ended (``live.sessions``)."""
        await self.end(CLOSE_SESSION_ENDED)

    async def invite_revoked(self, message: dict[str, Any]) -> None:
        """The invite token that let this socket in was replaced."""
        await self.end(CLOSE_REFUSED)

    async def end(self, code: int) -> None:
        self.ended = True
        await self.close(code=code)  # type: ignore[attr-defined]

    async def live_push(self, event: dict[str, Any]) -> None:
        if not self.ended:
            await self.send(text_data=event["html"])  # type: ignore[attr-defined]

    async def chat_refresh(self, message: dict[str, Any]) -> None:
        """Whose chat its viewer sees has changed (``live.apps``): only a
        game's socket shows chat."""


async def try_again_later(consumer: Any) -> None:
    """Accept the socket and close it at once with ``CLOSE_TRY_AGAIN_LATER``:
    a handshake refused outright reaches the page as a bare network error."""
    logger.warning("A socket is closed with try-again-later: Redis does not answer")
    with contextlib.suppress(Exception):
        await consumer.accept()
    await consumer.close(code=CLOSE_TRY_AGAIN_LATER, reason=UNAVAILABLE)


async def discard_all(consumer: Any, groups: list[str]) -> None:
    """Leave the channel-layer groups, as far as Redis lets us: a group
    whose member is gone expires on its own."""
    for group in groups:
        try:
            with redis_health.guarded():
                await consumer.channel_layer.group_discard(group, consumer.channel_name)
        except redis_health.ERRORS:
            return


def _query(scope: dict[str, Any], name: str) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    return values[0] if values else None


def _glances(scope: dict[str, Any]) -> bool:
    """``?glance=1``: the home page's small board, which counts as nobody
    watching or online. It changes nothing of what the socket is sent: the
    query string never picks an audience, who the viewer is does, so a
    seated player's glance is still a player's (no spectators' chat, no
    win bar)."""
    return _query(scope, "glance") == "1"


def _drawn_for(scope: dict[str, Any]) -> str | None:
    """``?as=``: whom the page was drawn for (``access.viewer_key``); None
    from a client that does not say (the home page's glances, old pages).
    Only compared with who the viewer is, never used as who they are."""
    return _query(scope, "as")


def _session_groups(scope: dict[str, Any], invited_pk: int | None) -> list[str]:
    names = sessions.groups_for(scope)
    if invited_pk is not None:
        names.append(access.invited_group(invited_pk))
    return names


def parse_frame(text_data: str | None, bytes_data: bytes | None) -> str | None:
    """The frame's type if it is one we accept, else None."""
    frame = accepted_frame(text_data, bytes_data)
    return None if frame is None else str(frame["type"])


def accepted_frame(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | None:
    """The frame if it is one we accept, else None: a ``since`` must be a
    version (a non-negative integer), and only a resync has one."""
    if bytes_data is not None or text_data is None or len(text_data) > MAX_FRAME:
        return None
    try:
        frame = json.loads(text_data)
    except ValueError:
        return None
    if not isinstance(frame, dict) or frame.get("type") not in ("resync", "ping", "visibility"):
        return None
    if frame["type"] == "visibility" and type(frame.get("visible")) is not bool:
        return None
    if "since" in frame:
        since = frame["since"]
        if frame["type"] != "resync" or type(since) is not int or since < 0:
            return None
    return frame


class GameConsumer(ForwardingMixin, CappedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no stubs
    """``/ws/games/<public_id>/``: the game's regions, chat and presence."""

    listener: access.Listener | None = None
    presence_entry = ""
    glance = False
    # The seats' names and colours, read once the socket is accepted: a
    # socket closed before has none and announces nothing.
    seat_names: list[dict[str, Any]] | None = None
    last_resync = 0.0
    accepted = False
    kept = False  # its presence entry is in this process's heartbeat
    ensuring: asyncio.Task[None] | None = None  # a spectator's win estimate queued
    resyncing: asyncio.Task[None] | None = None  # a snapshot asked for too soon, put off
    announcing: asyncio.Task[None] | None = None  # a presence announcement put off
    audiences: list[str]
    chat_view: ChatView = EVERYONE  # whose chat lines go out (``live.chatview``)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.audiences = []

    async def connect(self) -> None:
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        user = self.scope.get("user")
        self.listener = await database_sync_to_async(access.access_listener)(
            public_id, user, self.scope.get("session")
        )
        if self.listener is None:
            await self.close(code=CLOSE_REFUSED)  # before accept: the handshake is refused
            return
        drawn_for = _drawn_for(self.scope)
        if drawn_for is not None and drawn_for != access.viewer_key(user, self.listener.seat):
            # The page shows someone else's view (the session ended or changed
            # while it stayed open, and its socket came back before hearing
            # so). A snapshot replaces only the regions that changed, so the
            # page is told to load itself afresh, as after a logout.
            self.listener = None
            await self.accept()
            await self.close(code=CLOSE_SESSION_ENDED)
            return
        if not await self.claim_place():  # SOCKETS_PER_ACCOUNT
            self.listener = None
            return
        self.glance = _glances(self.scope)
        self.chat_view = await database_sync_to_async(chat_view)(
            user, seated=self.listener.seat is not None
        )
        try:
            with redis_health.guarded():
                summary = await self.join_live(user)
        except redis_health.ERRORS:
            await self.leave_live()
            self.listener = None  # nothing for disconnect to undo
            await try_again_later(self)
            return
        await self.accept()
        self.accepted = True
        await self.send_snapshot()
        self.seat_names = await database_sync_to_async(_seat_rows)(self.listener.game_pk)
        try:
            with redis_health.guarded():
                await self.update_presence(summary, always_self=True)
        except redis_health.ERRORS:
            await self.close(code=CLOSE_TRY_AGAIN_LATER, reason=UNAVAILABLE)
            return
        presence.keep(self.listener.game_pk, self.presence_entry, self)
        self.kept = True
        if self.listener.seat is None and not self.glance:
            # A spectator: the position's win estimate, if it has none yet.
            # Apart from the connect, which it must not slow down.
            self.ensuring = asyncio.create_task(self.ensure_estimate())

    async def join_live(self, user: Any) -> presence.Summary:
        """Register presence, then subscribe, then (the caller) take the
        snapshot: a push cannot fall between them (the broadcast skips
        audiences nobody is present in), and pushes not newer than the
        snapshot are dropped. Every step needs Redis."""
        assert self.listener is not None
        self.presence_entry = presence.member(
            presence.person_for(self.scope), self.listener.seat, self.channel_name, self.glance
        )
        summary = await presence.touch(self.listener.game_pk, self.presence_entry)
        self.groups = [groups.game_group(self.listener.game_pk)]
        invited = self.listener.game_pk if self.listener.invited else None
        self.groups += _session_groups(self.scope, invited)
        self.groups += await person_groups(user)
        await self.add_groups()
        self.versions: dict[str, int] = {}
        for audience in groups.audiences_for(
            self.listener.game_pk, self.listener.seat, glance=self.glance
        ):
            await fanout.join(audience, self)
            self.audiences.append(audience)
        return summary

    async def add_groups(self) -> None:
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave_live(self) -> None:
        """Undo what ``join_live`` did, as far as Redis lets us."""
        for audience in self.audiences:
            await fanout.leave(audience, self)
        self.audiences = []
        await discard_all(self, getattr(self, "groups", []))
        self.groups = []

    async def disconnect(self, code: int) -> None:
        await self.free_place()
        if self.listener is None:
            return
        if self.kept:
            presence.forget(self.listener.game_pk, self.presence_entry)
            self.kept = False
        for task in (self.announcing, self.ensuring, self.resyncing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.leave_live()
        await person_closed(self.scope.get("user"))
        if not self.presence_entry or redis_health.is_down():
            return
        with contextlib.suppress(Exception):
            summary = await presence.leave(self.listener.game_pk, self.presence_entry)
            await self.update_presence(summary)

    async def ensure_estimate(self) -> None:
        assert self.listener is not None
        with contextlib.suppress(Exception):
            await database_sync_to_async(estimating.ensure)(self.listener.game_pk)

    async def end(self, code: int) -> None:
        # Out of the audiences first: no seat's push reaches this socket
        # while it closes.
        self.ended = True
        for audience in self.audiences:
            await fanout.leave(audience, self)
        self.audiences = []
        await super().end(code)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = accepted_frame(text_data, bytes_data)
        if frame is None:
            await self.close(code=CLOSE_BAD_FRAME)
        elif frame["type"] == "visibility":
            if self.listener is not None and self.presence_entry:
                with contextlib.suppress(Exception):
                    await presence.set_visible(
                        self.listener.game_pk, self.presence_entry, frame["visible"]
                    )
        elif frame["type"] == "resync" and not self.ended:
            # A snapshot costs a full render: at most one a second per socket.
            # A page that asks sooner has found a gap the last one does not
            # cover (a push built on a version it never had): it is answered
            # once the second is up, however often it asked meanwhile. A
            # heartbeat that soon after a snapshot needs no answer.
            since = frame.get("since")
            wait = self.last_resync + RESYNC_INTERVAL - time.monotonic()
            if wait > 0:
                if since is None and (self.resyncing is None or self.resyncing.done()):
                    self.resyncing = asyncio.create_task(self.resync_later(wait))
                return
            self.last_resync = time.monotonic()
            if since is not None and since == await self.current_version():
                return  # the page's heartbeat, and the page is up to date
            await self.send_snapshot()

    async def resync_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        if not self.ended:
            self.last_resync = time.monotonic()
            await self.send_snapshot()

    async def current_version(self) -> int | None:
        assert self.listener is not None
        version: int | None = await database_sync_to_async(broadcast.current_version)(
            self.listener.game_pk
        )
        return version

    async def send_snapshot(self) -> None:
        assert self.listener is not None
        version, html = await database_sync_to_async(broadcast.snapshot)(
            self.listener.game_pk,
            self.listener.seat,
            self.scope.get("user"),
            win_bar=self.listener.seat is None and not self.glance,
        )
        self.versions = {"public": version, "audience": version}
        await self.send(text_data=html)

    # --- group messages -------------------------------------------------------

    async def live_push(self, event: dict[str, Any]) -> None:
        """A chat line goes out only if this viewer sees its author, with the
        mute, block and report controls to a signed-in viewer not its author;
        the players' room unveiled at the end is rendered for this viewer."""
        if self.ended:
            return
        html = event["html"]
        viewer = self.chat_view.viewer_id
        if "chat_author" in event:
            if not self.chat_view.shows(event["chat_author"]):
                return
            if viewer is not None and viewer != event["chat_author"]:
                html = event.get("signed", html)
        elif event.get("chat_pane") and viewer is not None:
            html = "<!--live-->" + await self.chat_pane()
        await self.send(text_data=html)

    async def chat_refresh(self, message: dict[str, Any]) -> None:
        """Its viewer blocked, muted or let someone back (``live.apps``): the
        pushes are filtered afresh, and the chat pane is drawn again without
        (or with) that person's lines."""
        if self.ended or self.listener is None:
            return
        user = self.scope.get("user")
        self.chat_view = await database_sync_to_async(chat_view)(
            user, seated=self.listener.seat is not None
        )
        if self.accepted and not self.glance:  # else its snapshot is still to come
            await self.send(text_data="<!--live-->" + await self.chat_pane())

    async def chat_pane(self) -> str:
        assert self.listener is not None
        html: str = await database_sync_to_async(chat.pane_html)(
            self.listener.game_pk, self.listener.seat, self.scope.get("user")
        )
        return html

    async def deliver(self, message: dict[str, Any]) -> bool:
        """A push from ``live.fanout`` (the audiences' messages); True if
        nothing was written (``fanout.Member``)."""
        if self.ended:
            return True
        if message["type"] == "game.push":
            return await self.game_push(message)
        await getattr(self, message["type"].replace(".", "_"))(message)
        return False

    async def game_resync(self, event: dict[str, Any]) -> None:
        """``live.fanout`` lost this socket's subscription for a while and
        has it back: pushes may have been missed. Redis may also have come
        back empty, without this socket's presence (the broadcast renders
        nothing for an audience nobody is present in) and its channel-layer
        groups (chat, presence): both are registered again before the
        snapshot, as on connect, or the socket would hear nothing until its
        next presence heartbeat."""
        if not self.accepted or self.listener is None:
            return  # the first snapshot is still to come
        try:
            with redis_health.guarded():
                await presence.touch(self.listener.game_pk, self.presence_entry)
                await self.add_groups()
        except redis_health.ERRORS:
            await self.close(code=CLOSE_TRY_AGAIN_LATER, reason=UNAVAILABLE)
            return
        self.last_resync = time.monotonic()
        await self.send_snapshot()

    async def game_push(self, event: dict[str, Any]) -> bool:
        part = event["part"]
        if self.ended:
            return True
        if not self.accepted:
            # Joined, not accepted yet (a socket cannot be written before):
            # the snapshot, read after the accept, shows this version.
            return True
        if event["version"] <= self.versions.get(part, -1):
            return True  # already in the snapshot, or a duplicate
        self.versions[part] = event["version"]
        await self.send(text_data=event["html"])
        return False  # Twisted writes it when the loop next polls the socket

    # --- presence -------------------------------------------------------------

    async def update_presence(self, summary: presence.Summary, always_self: bool = False) -> None:
        """Announce who is here to the game's sockets if it changed (at most
        every ``presence.ANNOUNCE_EVERY``, the last change always), and with
        ``always_self`` show it to this socket regardless."""
        assert self.listener is not None
        if self.seat_names is None:
            return  # could not render it: claiming the announcement would lose it
        verdict = await presence.announce(self.listener.game_pk, summary)
        presence.seen(self.listener.game_pk, summary)
        if verdict is presence.Announce.LATER:
            self.announce_later()
        if verdict is presence.Announce.NOW:
            await self.channel_layer.group_send(
                groups.game_group(self.listener.game_pk),
                {"type": "live.push", "html": self.presence_html(summary)},
            )
        elif always_self:
            await self.send(text_data=self.presence_html(summary))

    def presence_html(self, summary: presence.Summary) -> str:
        return "<!--live-->" + render_to_string(
            "live/presence.html",
            {
                "oob": True,
                "watching": summary.watching,
                "seats": [
                    {**row, "online": row["number"] in summary.present_seats}
                    for row in self.seat_names or []
                ],
            },
        )

    def announce_later(self) -> None:
        """Ask again once the game's announcement slot is free: a change seen
        while another socket had just announced must not go unshown."""
        if self.announcing is None or self.announcing.done():
            self.announcing = asyncio.get_running_loop().create_task(self._announce_later())

    async def _announce_later(self) -> None:
        assert self.listener is not None
        await asyncio.sleep(presence.ANNOUNCE_EVERY * (1 + random.random() / 10))
        self.announcing = None  # told LATER again, this socket asks once more
        try:
            with redis_health.guarded():
                await self.update_presence(await presence.current(self.listener.game_pk))
        except Exception:
            logger.warning("presence announcement failed", exc_info=True)


async def person_groups(user: Any) -> list[str]:
    """A signed-in person's sockets all carry what is addressed to them (their
    unread count): counted open (so that it is pushed), then listening on
    their group."""
    if not getattr(user, "is_authenticated", False):
        return []
    await database_sync_to_async(presence.person_connected)(user.pk)
    return [groups.person_group(user.pk)]


async def person_closed(user: Any) -> None:
    if getattr(user, "is_authenticated", False):
        with contextlib.suppress(Exception):
            await database_sync_to_async(presence.person_disconnected)(user.pk)


def _seat_rows(game_pk: int) -> list[dict[str, Any]]:
    from games.models import Seat
    from games.web.presenters import seat_colours

    colours = seat_colours()
    return [
        {"number": seat.number, "name": seat.name, "colour": colours[seat.number % len(colours)]}
        for seat in Seat.objects.filter(game_id=game_pk, user__isnull=False).select_related("user")
    ]


class LobbyConsumer(ForwardingMixin, CappedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    """``/ws/lobby/`` and ``/ws/watch/``: the open-games and watch lists."""

    groups: list[str]
    user_pk: int | None = None

    async def connect(self) -> None:
        room = self.scope["url_route"]["kwargs"]["room"]
        user = self.scope.get("user")
        self.groups = []
        if not await self.claim_place():  # SOCKETS_PER_ACCOUNT
            return
        self.groups = [groups.LOBBY_GROUP if room == "lobby" else groups.WATCH_GROUP]
        mine = room == "lobby" and getattr(user, "is_authenticated", False)
        if mine:
            # The person's own "Your games" list, pushed when one of them
            # changes (counted open first, then listened to, then sent).
            self.user_pk = user.pk
            self.groups.append(groups.user_games_group(user.pk))
        self.groups += _session_groups(self.scope, None)
        try:
            with redis_health.guarded():
                if mine:
                    await presence.lobby_opened(user.pk)
                self.groups += await person_groups(user)
                for group in self.groups:
                    await self.channel_layer.group_add(group, self.channel_name)
        except redis_health.ERRORS:
            await discard_all(self, self.groups)
            self.groups, self.user_pk = [], None
            await try_again_later(self)
            return
        await self.accept()
        # A reconnecting page may have missed pushes: send the lists afresh.
        if room == "lobby":
            html = await database_sync_to_async(broadcast.lobby_html)()
        else:
            html = await database_sync_to_async(broadcast.watch_html)(user)
        if mine:
            html += await database_sync_to_async(broadcast.your_games_html)(user)
        await self.send(text_data="<!--live-->" + html)

    async def watch_refresh(self, message: dict[str, Any]) -> None:
        """The watch list changed: rendered for this viewer (without the
        win bar of a game they play in), shared with those who see the same."""
        if self.ended:
            return
        html = await database_sync_to_async(broadcast.watch_html)(
            self.scope.get("user"), message["key"]
        )
        await self.send(text_data="<!--live-->" + html)

    async def disconnect(self, code: int) -> None:
        await self.free_place()
        joined = getattr(self, "groups", [])
        await discard_all(self, joined)
        if joined:
            await person_closed(self.scope.get("user"))
        if self.user_pk is not None:
            with contextlib.suppress(Exception):
                await presence.lobby_closed(self.user_pk)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if parse_frame(text_data, bytes_data) is None:
            await self.close(code=CLOSE_BAD_FRAME)


class WaitingConsumer(ForwardingMixin, CappedSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    """``/ws/games/<public_id>/waiting/``: tells a game's waiting page to
    reload when its seats or status change (the page differs per viewer)."""

    groups: list[str]

    async def connect(self) -> None:
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        found = await database_sync_to_async(access.access_waiting_listener)(
            public_id, self.scope.get("user"), self.scope.get("session")
        )
        if found is None:
            await self.close(code=CLOSE_REFUSED)
            return
        pk, still_waiting, invited = found
        if not await self.claim_place():  # SOCKETS_PER_ACCOUNT
            return
        self.groups = [groups.waiting_group(pk)]
        self.groups += _session_groups(self.scope, pk if invited else None)
        try:
            with redis_health.guarded():
                for group in self.groups:
                    await self.channel_layer.group_add(group, self.channel_name)
        except redis_health.ERRORS:
            await discard_all(self, self.groups)
            self.groups = []
            await try_again_later(self)
            return
        await self.accept()
        if not still_waiting:  # it started while the page was on its way
            await self.send(text_data=broadcast.RELOAD["html"])

    async def disconnect(self, code: int) -> None:
        await self.free_place()
        await discard_all(self, getattr(self, "groups", []))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if parse_frame(text_data, bytes_data) is None:
            await self.close(code=CLOSE_BAD_FRAME)
