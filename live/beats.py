"""Timers that keep many sockets' Redis entries alive together: one task per
event loop, not one per socket (issue #35).

Each open socket used to run a heartbeat task of its own for its presence
entry (``live.presence``), and a signed-in one a second for its place in the
account's count (``live.socket_cap``): a Redis round trip per socket every
twenty seconds each, their replies parsed on the loop that writes the pushes
(with a 1,000-socket crowd, each heartbeat also read and parsed every other
socket's entry). Now a socket only registers its entry under a key (a game,
a person); the loop's one task refreshes every key that is due in a single
pipelined round trip, each key's members in one command.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

logger = logging.getLogger(__name__)

TICK_SECONDS = 1.0  # how late past its period a key may be refreshed

V = TypeVar("V")
# Per key that is due, its members (each with what was registered with it).
Due = dict[Any, dict[str, V]]


class Beat(Generic[V]):
    """Keys with members, refreshed by ``refresh`` every ``every()`` seconds
    (a function, read at each refresh) from when the key was first added."""

    def __init__(
        self, name: str, every: Callable[[], float], refresh: Callable[[Due[V]], Awaitable[None]]
    ) -> None:
        self.name = name
        self.every = every
        self.refresh = refresh
        self._loops: dict[asyncio.AbstractEventLoop, _LoopBeat[V]] = {}

    def _here(self, create: bool) -> _LoopBeat[V] | None:
        loop = asyncio.get_running_loop()
        beat = self._loops.get(loop)
        if beat is None and create:
            beat = self._loops[loop] = _LoopBeat(self, loop)
        return beat

    def add(self, key: Any, member: str, value: V) -> None:
        beat = self._here(create=True)
        assert beat is not None
        beat.add(key, member, value)

    def remove(self, key: Any, member: str) -> None:
        beat = self._here(create=False)
        if beat is None:
            return
        beat.remove(key, member)
        if not beat.keys:
            del self._loops[beat.loop]
            beat.stop()

    def note(self, key: Any, value: Any) -> None:
        """Remember ``value`` for ``key`` on this loop while the key has
        members (what its refresh last found, for instance)."""
        beat = self._here(create=False)
        if beat is not None and key in beat.keys:
            beat.notes[key] = value

    def noted(self, key: Any) -> Any:
        beat = self._here(create=False)
        return None if beat is None else beat.notes.get(key)

    def members(self, key: Any) -> dict[str, V]:
        beat = self._here(create=False)
        return {} if beat is None else dict(beat.keys.get(key, {}))


class _LoopBeat(Generic[V]):
    def __init__(self, beat: Beat[V], loop: asyncio.AbstractEventLoop) -> None:
        self.beat = beat
        self.loop = loop
        self.keys: dict[Any, dict[str, V]] = {}
        self.due: dict[Any, float] = {}  # loop time of each key's next refresh
        self.notes: dict[Any, Any] = {}
        self.task: asyncio.Task[None] | None = None

    def add(self, key: Any, member: str, value: V) -> None:
        if key not in self.keys:
            self.keys[key] = {}
            self.due[key] = self.loop.time() + self.beat.every()
        self.keys[key][member] = value
        if self.task is None:
            self.task = self.loop.create_task(self.run())

    def remove(self, key: Any, member: str) -> None:
        members = self.keys.get(key)
        if members is None:
            return
        members.pop(member, None)
        if not members:
            del self.keys[key]
            del self.due[key]
            self.notes.pop(key, None)

    def stop(self) -> None:
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        self.task = None

    async def run(self) -> None:
        while True:
            await asyncio.sleep(min(TICK_SECONDS, self.beat.every()))
            now = self.loop.time()
            due = {key: dict(self.keys[key]) for key, at in self.due.items() if at <= now}
            if not due:
                continue
            for key in due:
                self.due[key] = now + self.beat.every()
            try:
                await self.beat.refresh(due)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("%s: the refresh failed", self.beat.name, exc_info=True)
