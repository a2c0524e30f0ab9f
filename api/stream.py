"""The NDJSON streams, served straight by the ASGI server.

``GET /api/v1/games/{id}/stream`` and ``GET /api/v1/stream/events`` hold
their connection open for as long as the game or the client lasts. Django's
HTTP handler here runs each request's sync code on one of a few lent threads
(``monopoly_site.asgi.RequestThreads``) and keeps it lent until the response
is sent, so a stream served by a Django view would hold one of those four
threads for its whole life. These streams are therefore a small ASGI app in
front of Django (``with_streams``), like the WebSocket consumers: async, with
their few database reads on the sockets' shared thread. The ninja
operations of the same paths (``api.stream_routes``) document them in the
OpenAPI document and serve them where no ASGI server is (the test client,
WSGI): the catch-up, then the end of the response.

A stream subscribes first (a channel of its own on the channel layer, in its
group, ``api.listeners``), then catches up from the stored rows, then
follows the commits it is told of, each read again from the database and
deduplicated by version: a commit between the catch-up and the first
message is read once, never skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port, validate_host

from api import auth, limits, listeners, stream_lines, user_events
from api.models import SCOPE_READ
from api.problems import Problem, problem
from common.headers import header_problem
from common.numbers import whole_number
from games import access
from games.models import Game
from live import groups, presence, socket_cap

logger = logging.getLogger(__name__)

GAME_STREAM = re.compile(r"^/api/v1/games/(?P<game_id>[^/]*)/stream/?$")
EVENTS_STREAM = re.compile(r"^/api/v1/stream/events/?$")
GAME_ID = re.compile(r"^[A-Za-z0-9]{1,16}$")
CONTENT_TYPE = "application/x-ndjson"
FAILED: dict[str, Any] = {"type": "stream.failed"}

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Line = dict[str, Any]
Write = Callable[[Line], Awaitable[None]]


def keepalive() -> float:
    return float(settings.API_STREAM_KEEPALIVE_SECONDS)


class Refused(Exception):
    """A stream that may not open: answered as a problem document."""

    def __init__(self, status: int, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.extra = extra


# --- who asks, and what they may follow (sync, shared with the ninja routes) ---


def client_of(scope: dict[str, Any], headers: dict[str, str]) -> HttpRequest:
    """A request holding what ``common.ratelimit`` reads of the client (its
    address, and what trusted proxies say of it)."""
    request = HttpRequest()
    request.META["REMOTE_ADDR"] = (scope.get("client") or ("unknown",))[0]
    if "x-forwarded-for" in headers:
        request.META["HTTP_X_FORWARDED_FOR"] = headers["x-forwarded-for"]
    return request


def user_for(authorization: str | None, client: HttpRequest) -> Any:
    """The token's user if it may read, else ``Refused`` (401, 403, or 429
    while ``client``'s address has sent too many bad tokens)."""
    scheme, _, token = (authorization or "").partition(" ")
    row = None
    if scheme.lower() == "bearer" and token.strip():
        try:
            row = limits.authenticate(client, token.strip())
        except Problem as exc:
            raise Refused(exc.status, exc.detail, **exc.extra) from None
    if row is None:
        raise Refused(
            401,
            "Send a valid, unrevoked token as 'Authorization: Bearer <token>'.",
            headers={"WWW-Authenticate": 'Bearer realm="api"'},
        )
    # As the API's other reads decide (``api.auth``): a bot account's
    # ``bot`` token reads too, so a bot hears of its games' starts.
    if SCOPE_READ not in auth.granted(row.scopes, row.user):
        raise Refused(403, f"This token lacks the '{SCOPE_READ}' scope.", slug="scope")
    return row.user


def game_for(user: Any, game_id: str) -> tuple[int, int | None]:
    """The game's pk and the user's seat in it (None: a spectator), if they
    may see it (404 otherwise, as on the site)."""
    game = Game.objects.filter(public_id=game_id).first() if GAME_ID.match(game_id) else None
    viewer = access.check_viewer(game, user, None) if game is not None else None
    if viewer is None:
        raise Refused(404, "There is no such game.")
    return viewer.game.pk, stream_lines.seat_of(viewer.game.pk, user)


def parse_since(value: str | None) -> int | None:
    if value is None or value == "":
        return None
    since = whole_number(value, digits=10)
    if since is None:
        raise Refused(422, "since must be a game version: a whole number, 0 or more.")
    return since


def parse_follow(value: str | None) -> bool:
    if value is None or value.lower() in ("", "true", "1", "yes"):
        return True
    if value.lower() in ("false", "0", "no"):
        return False
    raise Refused(422, "follow is true or false.")


# --- the ASGI app -------------------------------------------------------------


def with_streams(app: Any) -> Any:
    """``app`` (Django), with the stream paths served here."""

    async def route(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = scope.get("path", "")
            found = GAME_STREAM.match(path)
            if found is not None:
                await serve(scope, receive, send, game_id=found["game_id"])
                return
            if EVENTS_STREAM.match(path):
                await serve(scope, receive, send, game_id=None)
                return
        await app(scope, receive, send)

    return route


async def serve(
    scope: dict[str, Any], receive: Receive, send: Send, *, game_id: str | None
) -> None:
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    query = {k: v[-1] for k, v in parse_qs(scope.get("query_string", b"").decode()).items()}
    try:
        if scope["method"] != "GET":
            raise Refused(405, "The stream is read with GET.", headers={"Allow": "GET"})
        # As the door checks the site's other requests (monopoly_site.badinput).
        problem = header_problem(headers.items())
        if problem is not None:
            raise Refused(400, problem)
        domain, _ = split_domain_port(headers.get("host", ""))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            raise Refused(400, "This host is not served here.")
        since = parse_since(query.get("since", headers.get("last-event-id")))
        follow = parse_follow(query.get("follow"))
        if game_id is None:
            user = await database_sync_to_async(user_for)(
                headers.get("authorization"), client_of(scope, headers)
            )
            body: Callable[[Write], Coroutine[Any, Any, None]] = EventsStream(user, follow).run
        else:
            user, (game_pk, seat) = await database_sync_to_async(_open_game)(
                headers.get("authorization"), client_of(scope, headers), game_id
            )
            body = GameStream(game_pk, seat, since, follow, user_pk=user.pk).run
        place = f"stream.{uuid.uuid4().hex}"
        if not await socket_cap.claim(user.pk, place):  # SOCKETS_PER_ACCOUNT
            raise Refused(429, socket_cap.too_many_words(), slug="too-many-connections")
    except Refused as refused:
        await _answer_problem(send, refused)
        return
    async with socket_cap.held(user.pk, place):
        await _stream(send, receive, body)


async def _stream(
    send: Send, receive: Receive, body: Callable[[Write], Coroutine[Any, Any, None]]
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", CONTENT_TYPE.encode()),
                (b"cache-control", b"no-cache, no-store"),
                (b"x-accel-buffering", b"no"),  # nginx: pass each line on at once
            ],
        }
    )

    async def write(line: Line) -> None:
        await send(
            {"type": "http.response.body", "body": stream_lines.encode(line), "more_body": True}
        )

    streaming = asyncio.create_task(body(write))
    leaving = asyncio.create_task(_disconnected(receive))
    done, _ = await asyncio.wait({streaming, leaving}, return_when=asyncio.FIRST_COMPLETED)
    for task in (streaming, leaving):
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    if streaming in done and leaving not in done:
        with contextlib.suppress(Exception):
            await send({"type": "http.response.body", "body": b"", "more_body": False})


def _open_game(
    authorization: str | None, client: HttpRequest, game_id: str
) -> tuple[Any, tuple[int, int | None]]:
    user = user_for(authorization, client)
    return user, game_for(user, game_id)


async def _disconnected(receive: Receive) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


async def _answer_problem(send: Send, refused: Refused) -> None:
    extra = dict(refused.extra)
    headers = extra.pop("headers", {})
    response = problem(refused.status, refused.detail, headers=headers, **extra)
    await send(
        {
            "type": "http.response.start",
            "status": response.status_code,
            "headers": [(k.lower().encode(), v.encode()) for k, v in response.items()],
        }
    )
    await send({"type": "http.response.body", "body": response.content})


class Subscription:
    """One channel of the channel layer, in one or more groups, its messages
    pumped into a queue (``FAILED`` once the layer fails): a receive is never
    cancelled half-way by a keep-alive's timeout."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.channel = ""
        self.joined: list[str] = []
        self.extra: list[str] = []
        self.pump: asyncio.Task[None] | None = None

    async def open(self, api_groups: list[str], other_groups: list[str] | None = None) -> None:
        layer = get_channel_layer()
        assert layer is not None
        self.channel = await layer.new_channel("api-stream.")
        for group in api_groups:
            await listeners.join(group, self.channel)
            self.joined.append(group)
        for group in other_groups or []:
            await layer.group_add(group, self.channel)
            self.extra.append(group)
        self.pump = asyncio.create_task(self._pump(layer))

    async def _pump(self, layer: Any) -> None:
        try:
            while True:
                self.queue.put_nowait(await layer.receive(self.channel))
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.warning("An API stream lost the channel layer", exc_info=True)
            self.queue.put_nowait(FAILED)

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None after ``timeout`` seconds of quiet."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None

    def drain(self) -> list[dict[str, Any]]:
        out = []
        while not self.queue.empty():
            out.append(self.queue.get_nowait())
        return out

    async def refresh(self) -> None:
        for group in self.joined:
            await listeners.join(group, self.channel)

    async def close(self) -> None:
        if self.pump is not None:
            self.pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.pump
        for group in self.joined:
            await listeners.leave(group, self.channel)
        layer = get_channel_layer()
        for group in self.extra:
            with contextlib.suppress(Exception):
                await layer.group_discard(group, self.channel)


class GameStream:
    def __init__(
        self,
        game_pk: int,
        seat: int | None,
        since: int | None,
        follow: bool,
        *,
        user_pk: int | None = None,
    ) -> None:
        self.game_pk = game_pk
        self.seat = seat
        self.since = since
        self.follow = follow
        self.version: int | None = since
        self.user_pk = user_pk
        # A player following their game's stream is at the game, as with its
        # page open: presence shows them online, and no "your move" notice
        # or email is raised for them (``presence.looking``). Their entry is
        # an API one, so no page regions are rendered for a seat that has
        # no page open (``live.broadcast``).
        self.here: str | None = None
        self.here_at = 0.0

    async def _be_here(self, channel: str) -> None:
        if self.seat is None or self.user_pk is None:
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

    async def _leave(self) -> None:
        if self.here is not None:
            with contextlib.suppress(Exception):
                await presence.leave(self.game_pk, self.here)

    async def run(self, write: Write) -> None:
        sub = Subscription()
        try:
            if self.follow:
                await sub.open([listeners.game_group(self.game_pk)])
                await self._be_here(sub.channel)
            if await self.catch_up(write, first=True) or not self.follow:
                return
            while True:
                message = await sub.next(keepalive())
                await self._be_here(sub.channel)
                if message is None:
                    await sub.refresh()
                    # A message lost on its way costs at most this wait.
                    current = await database_sync_to_async(stream_lines.current_version)(
                        self.game_pk
                    )
                    if current is not None and current > (self.version or 0):
                        if await self.catch_up(write):
                            return
                    else:
                        await write(stream_lines.ping(self.version or 0))
                    continue
                messages = [message, *sub.drain()]
                if FAILED in messages:
                    return  # the client reconnects with since=<its last version>
                newest = max(m.get("version", 0) for m in messages)
                if newest > (self.version or 0) and await self.catch_up(write):
                    return
        finally:
            await self._leave()
            await sub.close()

    async def catch_up(self, write: Write, *, first: bool = False) -> bool:
        """Send every line after the stream's version; True once the game
        has ended (the end line sent)."""
        since = self.since if first else self.version
        while True:
            batch = await database_sync_to_async(stream_lines.catch_up)(
                self.game_pk, self.seat, since
            )
            for line in batch.lines:
                await write(line)
            self.version = since = batch.version
            if batch.ended:
                return True
            if batch.lines and batch.lines[-1]["type"] == "state":
                return False


class EventsStream:
    def __init__(self, user: Any, follow: bool) -> None:
        self.follower = user_events.Follower(user)
        self.follow = follow

    async def run(self, write: Write) -> None:
        user = self.follower.user
        sub = Subscription()
        counted = False
        try:
            if self.follow:
                # Counted as a person with a socket open, so that the notices'
                # unread pushes (``notifications.live``) reach this stream too.
                await database_sync_to_async(presence.person_connected)(user.pk)
                counted = True
                await sub.open([listeners.user_group(user.pk)], [groups.person_group(user.pk)])
            for line in await database_sync_to_async(self.follower.opening)():
                await write(line)
            if not self.follow:
                return
            while True:
                message = await sub.next(keepalive())
                if message is None:
                    await sub.refresh()
                    await write({"type": "ping"})
                    continue
                messages = [message, *sub.drain()]
                if FAILED in messages:
                    return
                for line in await database_sync_to_async(self._read)(messages):
                    await write(line)
        finally:
            await sub.close()
            if counted:
                with contextlib.suppress(Exception):
                    await database_sync_to_async(presence.person_disconnected)(user.pk)

    def _read(self, messages: list[dict[str, Any]]) -> list[Line]:
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
