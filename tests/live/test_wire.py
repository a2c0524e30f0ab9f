"""A push written straight to a Daphne socket (``games.consumers._write_now``)
leaves at once, in order with what Twisted still holds, and only for plain
TCP."""

from __future__ import annotations

import collections
import socket
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from twisted.internet import tcp

from games.consumers import _write_now


class Reactor:
    """What a Twisted TCP transport asks of its reactor here: to be polled."""

    def __init__(self) -> None:
        self.writers: list[Any] = []

    # Twisted's names.
    def addReader(self, reader: Any) -> None:
        pass

    def removeReader(self, reader: Any) -> None:
        pass

    def addWriter(self, writer: Any) -> None:
        self.writers.append(writer)

    def removeWriter(self, writer: Any) -> None:
        pass


@pytest.fixture
def wire() -> Iterator[tuple[Any, socket.socket, Reactor]]:
    """A WebSocket protocol's side of a real socket pair, on a real
    ``tcp.Server`` transport, and the peer's socket."""
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    reactor = Reactor()
    protocol = SimpleNamespace(
        send_queue=collections.deque(),
        _perMessageCompress=None,
        trafficStats=SimpleNamespace(outgoingOctetsWireLevel=0),
    )
    transport = tcp.Server(ours, protocol, ("127.0.0.1", 1), None, 1, reactor)
    protocol.transport = transport
    try:
        yield protocol, peer, reactor
    finally:
        ours.close()
        peer.close()


def test_a_frame_is_on_the_socket_when_the_write_returns(wire: Any) -> None:
    protocol, peer, reactor = wire
    assert _write_now(protocol, b"frame")
    peer.setblocking(False)
    assert peer.recv(100) == b"frame"
    assert reactor.writers == []  # nothing left for the loop's poll
    assert protocol.trafficStats.outgoingOctetsWireLevel == 5


def test_what_the_kernel_does_not_take_is_left_to_twisted(wire: Any) -> None:
    protocol, _, reactor = wire
    big = b"x" * (8 << 20)  # more than any socket buffer takes at once
    assert _write_now(protocol, big)
    transport = protocol.transport
    held = b"".join(transport._tempDataBuffer)
    assert 0 < len(held) < len(big) and big.endswith(held)
    assert reactor.writers == [transport]
    # With Twisted holding bytes, the next frame must queue behind them.
    assert not _write_now(protocol, b"next")
    assert b"".join(transport._tempDataBuffer) == held


def test_a_frame_waits_behind_bytes_twisted_holds(wire: Any) -> None:
    protocol, peer, _ = wire
    protocol.transport.write(b"earlier")
    assert not _write_now(protocol, b"later")
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):
        peer.recv(100)


def test_a_frame_waits_behind_autobahns_own_queue(wire: Any) -> None:
    protocol, _, _ = wire
    protocol.send_queue.append((b"earlier", False))
    assert not _write_now(protocol, b"later")


def test_only_plain_tcp_is_written_directly(wire: Any) -> None:
    protocol, _, _ = wire
    protocol.transport = SimpleNamespace(socket=protocol.transport.socket)  # e.g. TLS
    assert not _write_now(protocol, b"frame")


def test_a_closing_socket_is_left_to_twisted(wire: Any) -> None:
    protocol, _, _ = wire
    protocol.transport.disconnecting = True
    assert not _write_now(protocol, b"frame")
