"""Clients of a running site for the benchmarks: an asyncio HTTP/1.1 client
with cookies, a scripted player that plays from the forms the page renders,
and a WebSocket spectator that follows a game the way static/js/live.js
does. No third-party HTTP client is pinned; this needs only asyncio and the
``websockets`` package the site already depends on."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

# "<!--push N after B-->": a push built on version B rather than N-1
# (static/js/live.js).
FRAME = re.compile(r"^<!--(push|snapshot|live|reload)(?: (\d+)(?: after (\d+))?)?-->")
LB_MARK = b"<center>nginx"  # the body of nginx's own error pages


class ConnectionFailed(Exception):
    """No answer: refused, reset or timed out (a Daphne going down)."""


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    port: int

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    @property
    def from_balancer(self) -> bool:
        """An error nginx gave itself (no Daphne answered) rather than the site's."""
        return self.status in (502, 503, 504) and LB_MARK in self.body


class HttpClient:
    """One browser: cookies, a keep-alive connection, and the addresses it
    connects from and to. With several ports (no load balancer) it sticks to
    one and moves to the next when that one does not answer."""

    def __init__(self, ports: list[int], source: str = "127.0.0.1", first: int = 0) -> None:
        self.ports = ports
        self.index = first % len(ports)
        self.source = source
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    @property
    def port(self) -> int:
        return self.ports[self.index]

    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def request(
        self,
        method: str,
        path: str,
        data: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Response:
        try:
            return await asyncio.wait_for(self._request(method, path, data, headers), timeout)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            await self.close()
            if len(self.ports) > 1:
                self.index = (self.index + 1) % len(self.ports)
            raise ConnectionFailed(repr(exc)) from None

    async def _request(
        self, method: str, path: str, data: dict[str, Any] | None, headers: dict[str, str] | None
    ) -> Response:
        for attempt in range(2):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(self.source, 0)
                )
            assert self.reader is not None and self.writer is not None
            body = urlencode(data).encode() if data is not None else b""
            lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
            if self.cookies:
                lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
            if data is not None:
                lines.append("Content-Type: application/x-www-form-urlencoded")
            if method != "GET":
                lines.append(f"Content-Length: {len(body)}")
            for k, v in (headers or {}).items():
                lines.append(f"{k}: {v}")
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            try:
                status_line = await self.reader.readline()
            except (ConnectionResetError, BrokenPipeError):
                status_line = b""
            if not status_line:
                # A kept-alive connection the server had closed: once more,
                # on a new one (nothing reached the server on this one).
                await self.close()
                if fresh or attempt:
                    raise ConnectionResetError("closed without an answer")
                continue
            return await self._read_response(status_line)
        raise ConnectionResetError("closed without an answer")

    async def _read_response(self, status_line: bytes) -> Response:
        assert self.reader is not None
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                pair = value.split(";", 1)[0]
                k, _, v = pair.partition("=")
                if v == '""' or "max-age=0" in value.lower():
                    self.cookies.pop(k.strip(), None)
                else:
                    self.cookies[k.strip()] = v.strip()
            headers[name] = value
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readline()
                    break
                parts.append(await self.reader.readexactly(size))
                await self.reader.readline()
            body = b"".join(parts)
        elif "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        else:
            body = await self.reader.read()
            await self.close()
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return Response(status, headers, body, self.port)

    async def login(self, username: str, password: str) -> None:
        page = await self.request("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.body)
        if token is None:
            raise RuntimeError(f"no login form ({page.status})")
        answer = await self.request(
            "POST",
            "/accounts/login/",
            {
                "login": username,
                "password": password,
                "csrfmiddlewaretoken": token.group(1).decode(),
            },
            {"Origin": self.origin(), "Referer": self.origin() + "/accounts/login/"},
        )
        if answer.status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"login of {username} answered {answer.status}")


# --- reading the action panel -------------------------------------------------

ACTIONS = re.compile(r'<section id="actions"[^>]*data-version="(\d+)"[^>]*>(.*?)</section>', re.S)
FORM = re.compile(r'<form class="action-form[^"]*"[^>]*action="([^"]+)"[^>]*>(.*?)</form>', re.S)
INPUT = re.compile(r"<input\b([^>]*)>")
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


@dataclass
class ActionChoice:
    fields: dict[str, str]
    number: tuple[str, int, int] | None  # name, min, max
    group: str  # decision | manage | trade

    @property
    def kind(self) -> str:
        return self.fields.get("kind", "")


@dataclass
class Panel:
    version: int
    choices: list[ActionChoice]

    @property
    def decisions(self) -> list[ActionChoice]:
        return [c for c in self.choices if c.group == "decision"]


def read_panel(text: str) -> Panel | None:
    """The action panel of a page or of regions: its version and every form."""
    match = ACTIONS.search(text)
    if match is None:
        return None
    version, body = int(match.group(1)), match.group(2)
    choices = []
    # The groups come in this order in games/play/actions_body.html.
    bounds = [(m.start(), m.group(1)) for m in re.finditer(r"action-group (\w+)", body)]
    for form in FORM.finditer(body):
        group = "decision"
        for start, name in bounds:
            if start < form.start():
                group = name
        fields: dict[str, str] = {}
        number = None
        for raw in INPUT.findall(form.group(2)):
            attrs = {k: html.unescape(v) for k, v in ATTR.findall(raw)}
            if "name" not in attrs:
                continue
            if attrs.get("type") == "number":
                number = (attrs["name"], int(attrs.get("min", "0")), int(attrs.get("max", "0")))
                fields[attrs["name"]] = attrs.get("value", attrs.get("min", "0"))
            else:
                fields[attrs["name"]] = attrs.get("value", "")
        if "kind" in fields:
            choices.append(ActionChoice(fields, number, group))
    return Panel(version, choices)


# --- a scripted player ----------------------------------------------------------


@dataclass
class Attempt:
    """One move as the client meant it, with every answer its posts got."""

    game: str
    player: int
    version: int  # the expected version it was posted with
    fields: dict[str, str]
    answers: list[int | str] = field(default_factory=list)  # statuses; "lb" or "conn"
    sent_at: float = 0.0

    @property
    def told_applied(self) -> bool:
        return 200 in self.answers


@dataclass
class Stats:
    http_5xx: int = 0
    http_5xx_by_status: dict[str, int] = field(default_factory=dict)
    http_5xx_seen: list[tuple[float, int, str]] = field(default_factory=list)  # when, status, path
    lb_errors: int = 0
    lb_error_times: list[float] = field(default_factory=list)
    requests: int = 0
    posts: int = 0
    conflicts: int = 0
    other_4xx: dict[str, int] = field(default_factory=dict)
    attempts: list[Attempt] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def count(self, answer: Response | None, path: str = "") -> None:
        self.requests += 1
        if answer is None or answer.from_balancer:
            self.lb_errors += 1
            self.lb_error_times.append(time.time())
        elif answer.status >= 500:
            self.http_5xx += 1
            key = str(answer.status)
            self.http_5xx_by_status[key] = self.http_5xx_by_status.get(key, 0) + 1
            self.http_5xx_seen.append((time.time(), answer.status, path))
        elif answer.status >= 400 and answer.status != 409:
            key = str(answer.status)
            self.other_4xx[key] = self.other_4xx.get(key, 0) + 1


class Player:
    """A person playing one seat over HTTP: reads the panel the page renders,
    thinks, posts one of the forms it offers with the version it shows, and
    retries a post that got no answer (or a 5xx) with the same version.
    ``idle`` is the chance that a decision is left to its timer."""

    def __init__(
        self,
        client: HttpClient,
        public_id: str,
        seat: int,
        stats: Stats,
        *,
        think: tuple[float, float] = (0.3, 2.0),
        idle: float = 0.0,
        poll: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        self.client = client
        self.public_id = public_id
        self.seat = seat
        self.stats = stats
        self.think = think
        self.idle = idle
        self.poll = poll
        self.rng = rng or random.Random()
        self.base = f"/games/{public_id}/"
        self.idle_at = -1  # the version left to its timer

    async def get(self, path: str) -> Response | None:
        while True:
            try:
                answer = await self.client.request("GET", path)
            except ConnectionFailed:
                self.stats.count(None)
                await asyncio.sleep(0.5)
                continue
            self.stats.count(answer, path)
            if answer.status >= 500:
                await asyncio.sleep(0.5 + self.rng.random())
                continue
            return answer

    async def run(self, stop: asyncio.Event) -> None:
        page = await self.get(self.base)
        panel = read_panel(page.text) if page else None
        while not stop.is_set():
            if panel is None or page is None:
                return
            if "The game is over" in page.text and not panel.decisions:
                return
            choice = self.choose(panel)
            if choice is None:
                await self.wait(stop, self.poll)
                answer = await self.get(f"{self.base}regions?since={panel.version}")
                if answer is not None and answer.status == 200:
                    page, panel = answer, read_panel(answer.text) or panel
                continue
            await self.wait(stop, self.rng.uniform(*self.think))
            if stop.is_set():
                return
            answer = await self.post(panel.version, choice)
            if answer is not None and answer.status in (200, 409):
                fresh = read_panel(answer.text)
                if fresh is not None:
                    page, panel = answer, fresh
                    continue
            # Refused or lost: read the position afresh.
            answer = await self.get(f"{self.base}regions")
            if answer is not None and answer.status == 200:
                page, panel = answer, read_panel(answer.text) or panel

    async def wait(self, stop: asyncio.Event, seconds: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds)

    def choose(self, panel: Panel) -> ActionChoice | None:
        decisions = panel.decisions
        if not decisions:
            return None
        if self.idle_at == panel.version:
            return None
        if self.rng.random() < self.idle:
            self.idle_at = panel.version  # left to the timer: wait for the next version
            return None
        # Now and then a property form (build, mortgage...) first.
        manage = [c for c in panel.choices if c.group == "manage"]
        if manage and self.rng.random() < 0.03:
            return self.rng.choice(manage)
        trade = [c for c in panel.choices if c.group == "trade" and "trade" in c.kind]
        answers = [c for c in trade if c.kind in ("accept_trade", "reject_trade")]
        if answers and self.rng.random() < 0.5:
            return self.rng.choice(answers)
        usual = [c for c in decisions if c.kind != "declare_bankruptcy"] or decisions
        return self.rng.choice(usual)

    async def post(self, version: int, choice: ActionChoice) -> Response | None:
        fields = dict(choice.fields)
        fields["expected_version"] = str(version)
        if choice.number is not None:
            name, low, high = choice.number
            fields[name] = str(self.rng.randint(low, max(low, min(high, low + 50))))
        attempt = Attempt(self.public_id, self.seat, version, fields, sent_at=time.time())
        self.stats.attempts.append(attempt)
        action = fields.pop("action", None) or f"{self.base}act"
        fields.pop("csrfmiddlewaretoken", None)
        token = self.client.cookies.get("csrftoken", "")
        headers = {
            "X-CSRFToken": token,
            "HX-Request": "true",
            "Origin": self.client.origin(),
        }
        for retry in range(8):
            self.stats.posts += 1
            try:
                answer = await self.client.request("POST", action, fields, headers)
            except ConnectionFailed:
                self.stats.count(None)
                attempt.answers.append("conn")
                await asyncio.sleep(min(4.0, 0.3 * 2**retry) * (0.5 + self.rng.random()))
                headers["Origin"] = self.client.origin()
                continue
            self.stats.count(answer, action)
            if answer.from_balancer:
                attempt.answers.append("lb")
            else:
                attempt.answers.append(answer.status)
            if answer.status == 409:
                self.stats.conflicts += 1
            if answer.status >= 500 or answer.status == 429:
                wait = float(answer.headers.get("retry-after", "0") or 0)
                await asyncio.sleep(max(wait, min(4.0, 0.3 * 2**retry) * (0.5 + self.rng.random())))
                continue
            return answer
        return None


# --- a spectator ----------------------------------------------------------------


@dataclass
class Spectator:
    """One anonymous page watching a game over its socket, as live.js does:
    a snapshot on every connect, a push per version, a resync when a push
    skips a version or after a quiet spell (``heartbeat``), and reconnection
    with jittered backoff after a close.
    ``seen`` holds (time, version) whenever the shown version rises."""

    url_for: Callable[[int], str]  # attempt number -> ws URL
    origin_for: Callable[[int], str]
    source: str = "127.0.0.1"
    version: int = -1
    seen: list[tuple[float, int]] = field(default_factory=list)
    connects: int = 0
    resyncs: int = 0
    on_push: Callable[[int, float], None] | None = None
    # A seated player's socket: its session cookie, and what to do with
    # each frame shown (which carries the seat's action panel).
    headers: dict[str, str] | None = None
    on_frame: Callable[[int, str], None] | None = None
    heartbeat: float = 30.0  # the page's data-heartbeat; 0: none
    heartbeats: int = 0
    # (time, what) of each connect, close, failed attempt and resync asked:
    # what the soak shows for the spectator slowest to catch up.
    events: list[tuple[float, str]] = field(default_factory=list)

    def show(self, version: int, message: str = "") -> None:
        # One version comes as several frames (the public regions, then the
        # audience's or the seat's): each is handed on, the first counts.
        if self.on_frame is not None and version >= self.version:
            self.on_frame(version, message)
        if version > self.version:
            self.version = version
            now = time.time()
            self.seen.append((now, version))
            if self.on_push is not None:
                self.on_push(version, now)

    async def run(self, stop: asyncio.Event, ready: asyncio.Event | None = None) -> None:
        import websockets

        tries = 0
        while not stop.is_set():
            attempt = self.connects
            try:
                async with websockets.connect(
                    self.url_for(attempt),
                    origin=self.origin_for(attempt),  # type: ignore[arg-type]
                    max_size=None,
                    open_timeout=10,
                    ping_interval=None,
                    local_addr=(self.source, 0),
                    additional_headers=self.headers,
                ) as socket_:
                    self.connects += 1
                    self.events.append((time.time(), "connected"))
                    tries = 0
                    if ready is not None:
                        ready.set()
                    reader = asyncio.create_task(self._read(socket_))
                    stopper = asyncio.create_task(stop.wait())
                    await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                    stopper.cancel()
                    if not reader.done():
                        reader.cancel()
                        return
                    reader.result()
            except Exception as exc:
                self.events.append((time.time(), f"{type(exc).__name__}: {exc}"[:120]))
            # As live.js: up to 1 s after the first close, doubling to 8 s.
            delay = random.random() * 1.0 * 2 ** min(tries, 3)
            tries += 1
            self.events.append((time.time(), f"retry in {delay:.1f} s"))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)

    def _next_heartbeat(self) -> float | None:
        if not self.heartbeat:
            return None
        return time.monotonic() + self.heartbeat * (5 / 6 + random.random() / 3)

    async def _read(self, socket_: Any) -> None:
        quiet_until = self._next_heartbeat()
        while True:
            # After a quiet spell (LIVE_HEARTBEAT_SECONDS, give or take a
            # sixth) without a versioned frame, the page asks whether it
            # missed a push; chat and presence frames do not put it off.
            timeout = None if quiet_until is None else max(0.0, quiet_until - time.monotonic())
            try:
                message = await asyncio.wait_for(socket_.recv(), timeout)
            except TimeoutError:
                if self.version >= 0:
                    self.heartbeats += 1
                    self.events.append((time.time(), "heartbeat"))
                    await socket_.send(json.dumps({"type": "resync", "since": self.version}))
                quiet_until = self._next_heartbeat()
                continue
            if not isinstance(message, str):
                continue
            match = FRAME.match(message)
            if match is None or match.group(2) is None:
                continue
            version = int(match.group(2))
            quiet_until = self._next_heartbeat()
            if match.group(1) == "snapshot":
                self.show(version, message)
            elif match.group(1) == "push":
                since = version - 1 if match.group(3) is None else int(match.group(3))
                if self.version >= 0 and since > self.version:
                    # A version was missed: ask for everything afresh.
                    self.resyncs += 1
                    self.events.append((time.time(), f"gap at {version}: resync"))
                    await socket_.send(json.dumps({"type": "resync"}))
                else:
                    self.show(version, message)
