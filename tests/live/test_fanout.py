"""``live.fanout`` hands the loop back while it delivers, so that sockets
written early go on the wire before the last one is written, unless their
members wrote them at once."""

from __future__ import annotations

import asyncio
from typing import Any

from live import fanout
from tests.live.conftest import run


class Member:
    def __init__(self, log: list[str], name: str, written: bool | None = None) -> None:
        self.log, self.name, self.written = log, name, written

    async def deliver(self, message: dict[str, Any]) -> bool | None:
        self.log.append(self.name)
        return self.written


def deliver_alongside_other_work(written: bool | None) -> list[str]:
    async def scenario() -> list[str]:
        log: list[str] = []
        hub = object.__new__(fanout._Hub)  # no Redis needed for local delivery
        hub.members = {"g": [Member(log, f"m{i}", written) for i in range(3 * fanout.FLUSH_EVERY)]}

        async def other_work() -> None:  # e.g. the transports writing out
            while True:
                log.append("loop")
                await asyncio.sleep(0)

        other = asyncio.create_task(other_work())
        await asyncio.sleep(0)
        await hub.deliver([("g", {"type": "game.push"})], None)
        other.cancel()
        return log

    return run(scenario)


def test_a_delivery_to_many_members_lets_the_loop_run_between_them() -> None:
    log = deliver_alongside_other_work(written=None)
    members = [i for i, entry in enumerate(log) if entry != "loop"]
    first, last = members[0], members[-1]
    # The loop ran between the first member and the last, more than once.
    assert log[first:last].count("loop") >= 2
    assert [log[i] for i in members] == [f"m{i}" for i in range(3 * fanout.FLUSH_EVERY)]


def test_members_that_wrote_at_once_are_delivered_without_yielding() -> None:
    log = deliver_alongside_other_work(written=True)
    members = [i for i, entry in enumerate(log) if entry != "loop"]
    assert members == list(range(members[0], members[0] + 3 * fanout.FLUSH_EVERY))
