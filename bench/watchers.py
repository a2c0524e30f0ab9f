"""A spectator's socket reduced to what a crowd measurement needs: when each
version's first frame arrives.

``agents.Spectator`` behaves like a page (resyncs, heartbeats, reconnects)
on the ``websockets`` package, which decodes every frame and wakes a task
per message. With 1,000 of them in the harness's one process, on the same
two cores as the site, reading a push took the client about as long as
sending it took the site, and the last spectator's figure measured the
client's queue as much as the site. A ``Watcher`` is an asyncio protocol:
it parses frame headers, looks at the first bytes of each text frame for
the version and skips the rest, and never decodes or copies a payload.
It does not reconnect: a crowd run counts what each socket missed.
"""

from __future__ import annotations

import asyncio
import base64
import os
import re
import struct
import time
from collections.abc import Callable

VERSION = re.compile(rb"^<!--(push|snapshot) (\d+)(?: after \d+)?-->")
TEXT, CLOSE, PING = 0x1, 0x8, 0x9


class Watcher(asyncio.Protocol):
    """One anonymous socket on a game. ``on_version(version, arrival)`` is
    called for the first frame of each version newer than the last shown;
    ``ready`` is set once the snapshot is in."""

    def __init__(
        self, host: str, port: int, path: str, on_version: Callable[[int, float], None]
    ) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            f"Origin: http://{host}:{port}\r\n\r\n"
        ).encode()
        self.on_version = on_version
        self.version = -1
        self.upgraded = False
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None
        self.ready = asyncio.Event()
        self.closed = asyncio.Event()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    def data_received(self, data: bytes) -> None:
        arrival = time.perf_counter()
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.close()
                return
            self.upgraded = True
            del buffer[: end + 4]
        while len(buffer) >= 2:
            opcode = buffer[0] & 0x0F
            length = buffer[1] & 0x7F
            head = 2
            if length == 126:
                if len(buffer) < 4:
                    return
                (length,) = struct.unpack_from("!H", buffer, 2)
                head = 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                (length,) = struct.unpack_from("!Q", buffer, 2)
                head = 10
            if len(buffer) < head + length:
                return  # the rest of the frame is still on its way
            if opcode == TEXT:
                match = VERSION.match(bytes(buffer[head : head + 40]))
                if match is not None:
                    self.shown(int(match.group(2)), match.group(1) == b"snapshot", arrival)
            elif opcode == PING:
                self.send(0xA, bytes(buffer[head : head + length]))
            elif opcode == CLOSE:
                self.close()
            del buffer[: head + length]

    def shown(self, version: int, snapshot: bool, arrival: float) -> None:
        if version > self.version:
            self.version = version
            if snapshot:
                self.ready.set()
            else:
                self.on_version(version, arrival)

    def send(self, opcode: int, payload: bytes) -> None:
        """A client frame: always masked (RFC 6455 5.3)."""
        if self.transport is None or self.transport.is_closing():
            return
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.send(CLOSE, struct.pack("!H", 1000))
            self.transport.close()


async def watch(
    host: str, port: int, path: str, on_version: Callable[[int, float], None], source: str
) -> Watcher:
    loop = asyncio.get_running_loop()
    _, watcher = await loop.create_connection(
        lambda: Watcher(host, port, path, on_version), host, port, local_addr=(source, 0)
    )
    return watcher
