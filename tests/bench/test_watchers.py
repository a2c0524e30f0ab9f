"""The crowd benchmark's lean socket reads the versions from the frames the
site sends, however the bytes are split on their way in."""

from __future__ import annotations

import importlib.util
import struct
from typing import Any

from tests.conftest import BASE_DIR

_spec = importlib.util.spec_from_file_location("watchers", BASE_DIR / "bench" / "watchers.py")
assert _spec is not None and _spec.loader is not None
watchers: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(watchers)


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True


def frame(opcode: int, payload: bytes) -> bytes:
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, n])
    elif n < 1 << 16:
        head = bytes([0x80 | opcode, 126]) + struct.pack("!H", n)
    else:
        head = bytes([0x80 | opcode, 127]) + struct.pack("!Q", n)
    return head + payload


def stream() -> bytes:
    return b"".join(
        [
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\n\r\n",
            frame(0x1, b"<!--snapshot 7-->" + b"x" * 300),
            frame(0x1, b"<!--live-->presence"),
            frame(0x1, b"<!--push 8-->" + b"y" * 70_000),  # a 64-bit length
            frame(0x1, b"<!--push 8-->seat part"),  # the same version again
            frame(0x9, b"hi"),
            frame(0x1, b"<!--push 9-->" + b"z" * 10),
        ]
    )


def shown_after(chunks: list[bytes]) -> tuple[Any, list[int], Transport]:
    seen: list[int] = []
    watcher = watchers.Watcher("127.0.0.1", 80, "/ws/games/x/", lambda v, _: seen.append(v))
    transport = Transport()
    watcher.transport = transport  # as connection_made leaves it, less the request
    for chunk in chunks:
        watcher.data_received(chunk)
    return watcher, seen, transport


def test_reads_each_version_once_from_whole_frames() -> None:
    watcher, seen, transport = shown_after([stream()])
    assert watcher.ready.is_set() and watcher.version == 9
    assert seen == [8, 9]
    [pong] = transport.written
    assert pong[0] == 0x8A and pong[1] == 0x80 | 2  # a masked pong of the ping's two bytes


def test_reads_the_same_from_bytes_split_anywhere() -> None:
    data = stream()
    for size in (1, 7, 1000):
        _, seen, _ = shown_after([data[i : i + size] for i in range(0, len(data), size)])
        assert seen == [8, 9], size


def test_refuses_an_answer_that_is_not_an_upgrade() -> None:
    watcher, seen, transport = shown_after([b"HTTP/1.1 403 Forbidden\r\n\r\n"])
    assert transport.closing and not watcher.ready.is_set() and seen == []
