"""The patches of common.patches still fit the libraries they reach
into. Each test here fails, rather than the site quietly taking a slow path
or writing out of order, when an upgrade changes what a patch relies on;
docs/patches.md says what each patch buys."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

import pytest
from channels.sessions import InstanceSessionWrapper
from daphne.server import Server
from daphne.ws_protocol import WebSocketFactory
from twisted.internet import tcp

from common.patches import twisted_writes
from common.patches.twisted_writes import Sent, Wire, write_now
from tests.live.conftest import run


def test_the_patched_libraries_are_the_versions_the_patches_were_tested_with() -> None:
    installed = {name: version(name) for name in twisted_writes.TESTED}
    assert installed == twisted_writes.TESTED, (
        "An upgrade of a library common/patches/twisted_writes.py reaches into: "
        "check its private attributes (this file's other tests), run make bench-live with "
        "and without the patch (docs/patches.md), then update TESTED."
    )


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
    """Daphne's WebSocket protocol, connected through a real Twisted
    ``tcp.Server`` transport to one end of a socket pair, and the other end."""
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    reactor = Reactor()
    factory = WebSocketFactory(object(), server="test")
    protocol = factory.buildProtocol(("127.0.0.1", 1))
    transport = tcp.Server(ours, protocol, ("127.0.0.1", 1), None, 1, reactor)
    protocol.makeConnection(transport)
    try:
        yield protocol, peer, reactor
    finally:
        ours.close()
        peer.close()


def test_the_private_parts_write_now_reads_are_there(wire: Any) -> None:
    protocol, _, _ = wire
    transport = protocol.transport
    assert type(transport) is tcp.Server
    assert isinstance(transport._tempDataBuffer, list)
    assert isinstance(transport.dataBuffer, bytes)
    assert isinstance(transport.offset, int)
    assert transport._writeDisconnected is False
    assert transport.connected and not transport.disconnecting
    assert isinstance(transport.socket, socket.socket)
    assert len(protocol.send_queue) == 0
    assert protocol._perMessageCompress is None
    assert protocol.trafficStats.outgoingOctetsWireLevel == 0
    assert isinstance(protocol.STATE_OPEN, int)
    assert callable(protocol.sendPreparedMessage)


def test_a_frame_is_a_websocket_text_frame_of_the_push() -> None:
    frame = twisted_writes.prepared("<p>é</p>").payloadHybi
    payload = "<p>é</p>".encode()
    assert frame == bytes([0x81, len(payload)]) + payload  # FIN, text; unmasked


def test_a_frame_is_on_the_socket_when_the_write_returns(wire: Any) -> None:
    protocol, peer, reactor = wire
    assert write_now(protocol, b"frame")
    peer.setblocking(False)
    assert peer.recv(100) == b"frame"
    assert reactor.writers == []  # nothing left for the loop's poll
    assert protocol.trafficStats.outgoingOctetsWireLevel == 5


def test_what_the_kernel_does_not_take_is_left_to_twisted(wire: Any) -> None:
    protocol, _, reactor = wire
    big = b"x" * (8 << 20)  # more than any socket buffer takes at once
    assert write_now(protocol, big)
    transport = protocol.transport
    held = b"".join(transport._tempDataBuffer)
    assert 0 < len(held) < len(big) and big.endswith(held)
    assert reactor.writers == [transport]
    # With Twisted holding bytes, the next frame must queue behind them.
    assert not write_now(protocol, b"next")
    assert b"".join(transport._tempDataBuffer) == held


def test_a_frame_waits_behind_bytes_twisted_holds(wire: Any) -> None:
    protocol, peer, _ = wire
    protocol.transport.write(b"earlier")
    assert not write_now(protocol, b"later")
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):
        peer.recv(100)


def test_a_frame_waits_behind_autobahns_own_queue(wire: Any) -> None:
    protocol, _, _ = wire
    protocol.send_queue.append((b"earlier", False))
    assert not write_now(protocol, b"later")


def test_only_plain_tcp_is_written_directly(wire: Any) -> None:
    protocol, _, _ = wire
    protocol.transport = type("TLS", (), {"socket": protocol.transport.socket})()
    assert not write_now(protocol, b"frame")


def test_a_closing_socket_is_left_to_twisted(wire: Any) -> None:
    protocol, _, _ = wire
    protocol.transport.disconnecting = True
    assert not write_now(protocol, b"frame")


def test_the_send_daphne_and_channels_hand_a_consumer_leads_to_its_protocol(
    wire: Any, settings: Any
) -> None:
    """Daphne gives the application ``partial(server.handle_reply,
    protocol)``; Channels' session middleware keeps it as ``real_send`` and
    hands the consumer its own ``send``: ``Wire.under`` finds the protocol
    there, and writes an open socket's push straight to it."""
    protocol, peer, _ = wire
    server = Server(application=None, endpoints=["tcp:port=0"])
    server.connections = {protocol: {}}
    handed: list[Any] = []

    async def application(scope: Any, receive: Any, send: Any) -> None:
        handed.append(send)

    async def scenario() -> None:
        server.create_application(protocol, {"type": "websocket"})
        await asyncio.sleep(0)  # the application instance runs

    server.application = application
    run(scenario)  # a loop of its own: make test's browser tests keep one running
    session = InstanceSessionWrapper({"type": "websocket", "cookies": {}}, handed[0])
    wire_ = Wire.under(session.send)
    assert wire_ is not None
    assert wire_.server is server and wire_.protocol is protocol
    protocol.state = protocol.STATE_OPEN
    assert wire_.send("<p>push</p>") is Sent.WRITTEN
    peer.setblocking(False)
    assert peer.recv(100) == twisted_writes.prepared("<p>push</p>").payloadHybi


# --- common/patches/django_asgi.py ----------------------------------------


def test_djangos_asgi_handler_is_the_code_the_one_hop_handler_was_copied_from() -> None:
    import hashlib
    import inspect

    from django.core.handlers.asgi import ASGIHandler
    from django.core.handlers.base import BaseHandler

    from common.patches import django_asgi

    def digest(function: Any) -> str:
        return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()

    installed = {name: version(name) for name in django_asgi.TESTED}
    changed = (
        "Django changed what common/patches/django_asgi.py copies or replaces: "
        "compare its handle with Django's, check that _middleware_chain is still what "
        "get_response_async awaits, run make bench-live with and without the patch "
        "(docs/patches.md), then update TESTED and the digests."
    )
    assert installed == django_asgi.TESTED, changed
    assert digest(ASGIHandler.handle) == django_asgi.HANDLE_SHA256, changed
    assert digest(BaseHandler.load_middleware) == django_asgi.LOAD_MIDDLEWARE_SHA256, changed


def test_the_one_hop_chain_is_what_django_awaits_for_a_response() -> None:
    import inspect

    from django.core.handlers.base import BaseHandler

    from common.patches.django_asgi import OneHopASGIHandler

    handler: Any = OneHopASGIHandler()
    assert asyncio.iscoroutinefunction(handler._middleware_chain)
    assert "await self._middleware_chain(request)" in inspect.getsource(
        BaseHandler.get_response_async
    )
