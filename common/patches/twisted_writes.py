"""A game push written straight to each Daphne socket.

A push goes to many sockets at once. Through Channels' ``send`` each socket
costs Channels' session wrapper, Daphne's reply dispatch, a UTF-8 encode and
autobahn's framing, about 0.1 ms of the event loop per socket, and Twisted's
``write`` only buffers: the bytes leave when the loop next polls the socket.
Here the push is framed once (autobahn's ``PreparedMessage``, which exists
for broadcasts) and the same bytes are ``send()``-ed on each socket at once.
In ``make bench-live`` (50 spectators) on the shared 2-core VM, removing
this cost about 3-4 ms at the median push and took p99 past 50 ms
(docs/patches.md).

What it relies on, none of it public (tests/common/test_patches.py
checks each, so that an upgrade fails a test rather than quietly taking the
slow path or writing out of order):

- Channels: the consumer's ``base_send`` is a bound method of its session
  wrapper, whose ``real_send`` is ``partial(server.handle_reply, protocol)``.
- Daphne: ``server.connections[protocol]`` and its ``"disconnected"`` key.
- autobahn: the protocol's ``send_queue``, ``_perMessageCompress``,
  ``state``/``STATE_OPEN``, ``trafficStats.outgoingOctetsWireLevel`` and
  ``PreparedMessage(payload, is_binary, apply_mask, do_not_compress)``'s
  ``payloadHybi``.
- Twisted: ``tcp.Server``'s ``_tempDataBuffer``, ``dataBuffer``,
  ``offset``, ``_writeDisconnected``, ``connected``, ``disconnecting`` and
  ``socket``.

Found only where Daphne is the server (not under test communicators); a
socket that is not open goes through ``send`` as before.
"""

from __future__ import annotations

import enum
import functools
from typing import Any

from twisted.internet.tcp import Server as _TCP_SERVER

# The versions this was written and tested against (requirements.lock).
TESTED = {"twisted": "26.10.0", "autobahn": "26.10.2", "daphne": "4.2.3", "channels": "4.3.2"}


class Sent(enum.Enum):
    WRITTEN = "written"  # on the wire already
    QUEUED = "queued"  # waits for the event loop to poll the socket
    REFUSED = "refused"  # must go through Channels' send


class Wire:
    """A socket's Daphne (autobahn) protocol, under Channels' ``send``."""

    def __init__(self, server: Any, protocol: Any) -> None:
        self.server = server
        self.protocol = protocol

    @classmethod
    def under(cls, send: Any) -> Wire | None:
        real = getattr(getattr(send, "__self__", None), "real_send", send)
        if not isinstance(real, functools.partial) or len(real.args) != 1:
            return None
        server, protocol = getattr(real.func, "__self__", None), real.args[0]
        if not hasattr(server, "connections") or not hasattr(protocol, "sendPreparedMessage"):
            return None
        return cls(server, protocol)

    def send(self, html: str) -> Sent:
        """Write ``html`` as one text frame if the socket is open."""
        protocol = self.protocol
        connection = self.server.connections.get(protocol)
        if connection is None or connection.get("disconnected"):
            return Sent.WRITTEN  # gone: Daphne's send would drop it too
        if protocol.state != protocol.STATE_OPEN:
            return Sent.REFUSED
        frame = prepared(html)
        if write_now(protocol, frame.payloadHybi):
            return Sent.WRITTEN
        protocol.sendPreparedMessage(frame)
        return Sent.QUEUED


def write_now(protocol: Any, data: bytes) -> bool:
    """Send ``data`` on the socket at once, as Twisted would on its next
    poll, when nothing is waiting to go out before it; False (nothing
    written) where Twisted must do it. Only plain TCP qualifies (TLS wraps
    its own transport); what the kernel does not take is handed to Twisted,
    after which the socket's buffer holds data and this steps aside until
    Twisted has written it."""
    transport = protocol.transport
    if (
        type(transport) is not _TCP_SERVER
        or protocol.send_queue
        or protocol._perMessageCompress is not None
        or not transport.connected
        or transport.disconnecting
        or transport._writeDisconnected
        or transport._tempDataBuffer
        or len(transport.dataBuffer) > transport.offset
    ):
        return False
    try:
        sent = transport.socket.send(data)
    except (BlockingIOError, InterruptedError):
        sent = 0
    except OSError:
        return False  # Twisted's own write meets the error and closes the socket
    if sent < len(data):
        rest: Any = transport.write  # Twisted's, untyped
        rest(data[sent:])
    protocol.trafficStats.outgoingOctetsWireLevel += len(data)
    return True


# The last push framed, by the identity of its text: every socket of one
# delivery is handed the same string, so it is framed once.
_last_prepared: tuple[str, Any] | None = None


def prepared(html: str) -> Any:
    global _last_prepared
    if _last_prepared is None or _last_prepared[0] is not html:
        from autobahn.websocket.protocol import PreparedMessage

        # Server frames are not masked; never compressed (Daphne does not
        # offer compression, and an uncompressed frame is valid regardless).
        frame = PreparedMessage(html.encode("utf-8"), False, False, True)
        _last_prepared = (html, frame)
    return _last_prepared[1]
