"""The NDJSON streams: a Channels consumer, routed in the site's ASGI
application before Django (``monopoly_site/routing.py``).

``GET /api/v1/games/{id}/stream`` and ``GET /api/v1/stream/events`` hold
their response open for as long as the game or the client lasts. Django's
HTTP handler gives each request's sync code a thread of its own, with that
thread's database connection, until the response is sent: a stream served
by it would hold both for hours. The consumer, like the WebSocket ones, is
async and makes its few database reads on the consumers' shared thread.

Opening a stream is an ordinary request all the same: the consumer builds
Django's request from the scope and has Django's handler answer it, through
the site's middleware (the host check, the door's control characters) and
the path's ninja operation (``api.stream_routes``: the API's token check,
parameters and problems). A refusal is sent as it is; an ``Opened`` answer
is followed here.

A stream subscribes first (a channel of its own on the channel layer, in
its groups, ``api.listeners``), then catches up from the stored rows, then
follows the commits it is told of, each read again from the database and
deduplicated by version: a commit between the catch-up and the first
message is read once, never skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.http import AsyncHttpConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse

from api import listeners, stream_lines, user_events
from api.problems import problem
from live import groups, presence, socket_cap

logger = logging.getLogger(__name__)

CONTENT_TYPE = "application/x-ndjson"
# Set in a request's META by the consumer: an operation opens the stream
# for it to follow, instead of answering the catch-up.
FOLLOWED = "api.stream.followed"
FAILED: dict[str, Any] = {"type": "stream.failed"}

Line = dict[str, Any]
Write = Callable[[Line], Awaitable[None]]


def keepalive() -> float:
    return float(settings.API_STREAM_KEEPALIVE_SECONDS)


class Inbox:
    """A channel of the stream's own on the channel layer, opened only to
    follow, its messages pumped into a queue: a keep-alive's timeout never
    cancels a receive half-way."""

    def __init__(self) -> None:
        self.channel = ""
        self.queue: asyncio.Queue[Line] = asyncio.Queue()
        self.pump: asyncio.Task[None] | None = None

    async def open(self) -> None:
        layer = get_channel_layer()
        assert layer is not None
        self.channel = await layer.new_channel("api-stream.")
        self.pump = asyncio.create_task(self._pump(layer))

    async def _pump(self, layer: Any) -> None:
        try:
            while True:
                self.queue.put_nowait(await layer.receive(self.channel))
        except Exception:
            logger.warning("An API stream lost the channel layer", exc_info=True)
            self.queue.put_nowait(FAILED)

    def close(self) -> None:
        # Not awaited: channels-redis's receive, cancelled just after it
        # began, now and then never returns (as in redis/redis-py#2028; once
        # in 30 cancels here, 5 ms in), and the stream's end would hang on it.
        if self.pump is not None:
            self.pump.cancel()

    async def next(self) -> list[Line]:
        """What has arrived, or nothing after a keep-alive's wait."""
        try:
            first = await asyncio.wait_for(self.queue.get(), keepalive())
        except TimeoutError:
            return []
        out = [first]
        while not self.queue.empty():
            out.append(self.queue.get_nowait())
        if FAILED in out:  # the client reconnects with since=<its last version>
            raise ConnectionError("The channel layer failed.")
        return out


class Stream:
    """What an operation opens: followed by the consumer, or, with no ASGI
    server to hold the response, its catch-up sent at once."""

    user_pk: int
    follow: bool

    def lines(self) -> list[Line]:
        raise NotImplementedError

    async def run(self, write: Write, inbox: Inbox) -> None:
        raise NotImplementedError

    def answer(self, request: HttpRequest) -> HttpResponseBase:
        if request.META.get(FOLLOWED):
            return Opened(self)
        return HttpResponse(b"".join(map(stream_lines.encode, self.lines())), CONTENT_TYPE)


class Opened(StreamingHttpResponse):
    """An operation's yes: the headers to send, and the stream to follow.
    Streaming, so that no middleware gives it a Content-Length."""

    def __init__(self, stream: Stream) -> None:
        super().__init__((), content_type=CONTENT_TYPE)
        self["Cache-Control"] = "no-cache, no-store"
        self["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
        self.stream = stream


_handler: BaseHandler | None = None


def django_answer(request: HttpRequest) -> HttpResponseBase:
    """Django's answer to the request, through the site's middleware and
    URLs as its handler gives it. Not the ASGI handler, which would send the
    answer itself: this one returns it, for the consumer to follow."""
    global _handler
    if _handler is None:
        _handler = BaseHandler()
        _handler.load_middleware()
    return _handler.get_response(request)


class StreamConsumer(AsyncHttpConsumer):  # type: ignore[misc]  # channels has no stubs
    """One stream: its request answered by Django, then, if opened, followed
    in a task of its own while the consumer waits for the client's
    disconnect (which cancels the task)."""

    # No channel of the consumer's own (get_channel_layer: None): only a
    # stream that follows needs one (``Inbox``), not a refusal.
    channel_layer_alias = None

    def __init__(self) -> None:
        super().__init__()
        self.following: asyncio.Task[None] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.disconnect()

    async def http_request(self, message: Line) -> None:
        self.body.append(message.get("body", b""))
        if message.get("more_body"):
            return
        request = ASGIRequest(self.scope, io.BytesIO(b"".join(self.body)))
        request.META[FOLLOWED] = True
        response: HttpResponseBase
        if request.method != "GET":
            response = problem(405, "The stream is read with GET.", headers={"Allow": "GET"})
        else:
            response = await database_sync_to_async(django_answer)(request)
        place = f"stream.{uuid.uuid4().hex}"
        if isinstance(response, Opened) and not await socket_cap.claim(
            response.stream.user_pk, place
        ):
            response = problem(429, socket_cap.too_many_words(), slug="too-many-connections")
        headers = [(k.lower().encode("ascii"), v.encode("latin-1")) for k, v in response.items()]
        await self.send_headers(status=response.status_code, headers=headers)
        if isinstance(response, Opened):
            self.following = asyncio.create_task(self.follow(response.stream, place))
        else:
            assert isinstance(response, HttpResponse)
            await self.send_body(response.content)

    async def follow(self, stream: Stream, place: str) -> None:
        inbox = Inbox()
        try:
            async with socket_cap.held(stream.user_pk, place):
                if stream.follow:
                    await inbox.open()
                await stream.run(self.write, inbox)
        except Exception:  # the client reconnects with since=<its last version>
            logger.warning("An API stream failed", exc_info=True)
        finally:
            inbox.close()
        await self.send_body(b"")

    async def write(self, line: Line) -> None:
        await self.send_body(stream_lines.encode(line), more_body=True)

    async def disconnect(self) -> None:
        if self.following is not None:
            self.following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.following


class GameStream(Stream):
    def __init__(
        self, game_pk: int, seat: int | None, since: int | None, follow: bool, *, user_pk: int
    ) -> None:
        self.game_pk = game_pk
        self.seat = seat
        self.version = since
        self.follow = follow
        self.user_pk = user_pk
        # A player following their game's stream is at the game, as with its
        # page open: presence shows them online, and no "your move" notice
        # or email is raised for them (``presence.looking``). Their entry is
        # an API one, so no page regions are rendered for a seat that has
        # no page open (``live.broadcast``).
        self.here: str | None = None
        self.here_at = 0.0

    def _read(self) -> stream_lines.Batch:
        """The next lines after the stream's version (``stream_lines.catch_up``)."""
        batch = stream_lines.catch_up(self.game_pk, self.seat, self.version)
        self.version = batch.version
        return batch

    def lines(self) -> list[Line]:
        out: list[Line] = []
        while True:
            batch = self._read()
            out += batch.lines
            if batch.lines[-1]["type"] != "events":
                return out

    async def catch_up(self, write: Write) -> bool:
        """Send every line after the stream's version; True once the game
        has ended (the end line sent)."""
        while True:
            batch: stream_lines.Batch = await database_sync_to_async(self._read)()
            for line in batch.lines:
                await write(line)
            if batch.lines[-1]["type"] != "events":
                return batch.ended

    async def _be_here(self, channel: str) -> None:
        if self.seat is None:
            return
        loop = asyncio.get_running_loop()
        if self.here is not None and loop.time() - self.here_at < presence.HEARTBEAT_SECONDS:
            return
        self.here = self.here or presence.member(f"u{self.user_pk}", self.seat, channel, api=True)
        self.here_at = loop.time()
        try:
            await presence.touch(self.game_pk, self.here)
        except Exception:  # Redis down: the stream goes on without presence
            logger.warning("An API stream could not mark its player present", exc_info=True)

    async def run(self, write: Write, inbox: Inbox) -> None:
        group = listeners.game_group(self.game_pk)
        try:
            if self.follow:
                await listeners.join(group, inbox.channel)
                await self._be_here(inbox.channel)
            if await self.catch_up(write) or not self.follow:
                return
            while True:
                messages = await inbox.next()
                await self._be_here(inbox.channel)
                if messages:
                    newest = max(m.get("version", 0) for m in messages)
                    if newest > (self.version or 0) and await self.catch_up(write):
                        return
                    continue
                await listeners.join(group, inbox.channel)  # the entry's refresh
                # A message lost on its way costs at most this wait.
                current = await database_sync_to_async(stream_lines.current_version)(self.game_pk)
                if current is not None and current > (self.version or 0):
                    if await self.catch_up(write):
                        return
                else:
                    await write(stream_lines.ping(self.version or 0))
        finally:
            if self.here is not None:
                with contextlib.suppress(Exception):
                    await presence.leave(self.game_pk, self.here)
            if self.follow:
                await listeners.leave(group, inbox.channel)


class EventsStream(Stream):
    def __init__(self, user: Any, follow: bool) -> None:
        self.follower = user_events.Follower(user)
        self.follow = follow
        self.user_pk = user.pk

    def lines(self) -> list[Line]:
        return self.follower.opening()

    async def run(self, write: Write, inbox: Inbox) -> None:
        if not self.follow:
            for line in await database_sync_to_async(self.lines)():
                await write(line)
            return
        group = listeners.user_group(self.user_pk)
        # Counted as a person with a socket open, so that the notices'
        # unread pushes (``notifications.live``) reach this stream too.
        await database_sync_to_async(presence.person_connected)(self.user_pk)
        layer = get_channel_layer()
        assert layer is not None
        try:
            await listeners.join(group, inbox.channel)
            await layer.group_add(groups.person_group(self.user_pk), inbox.channel)
            for line in await database_sync_to_async(self.lines)():
                await write(line)
            while True:
                messages = await inbox.next()
                if not messages:
                    await listeners.join(group, inbox.channel)  # the entry's refresh
                    await write({"type": "ping"})
                    continue
                for line in await database_sync_to_async(self._read)(messages):
                    await write(line)
        finally:
            await listeners.leave(group, inbox.channel)
            with contextlib.suppress(Exception):
                await layer.group_discard(groups.person_group(self.user_pk), inbox.channel)
            with contextlib.suppress(Exception):
                await database_sync_to_async(presence.person_disconnected)(self.user_pk)

    def _read(self, messages: list[Line]) -> list[Line]:
        lines: list[Line] = []
        games = dict.fromkeys(
            m["game"] for m in messages if m.get("type") == listeners.MESSAGE_TYPE
        )
        for game_pk in games:
            lines += self.follower.game_changed(game_pk)
        if any(m.get("type") != listeners.MESSAGE_TYPE for m in messages):
            lines += self.follower.new_notices()
            lines += self.follower.new_messages()
        return lines
