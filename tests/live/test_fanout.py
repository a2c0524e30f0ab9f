"""``live.fanout`` hands the loop back while it delivers, so that sockets
written early go on the wire before the last one is written, unless their
members wrote them at once; and it keeps its Redis subscriptions right when
members join and leave at once, and when its connection is lost."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from redis import asyncio as aioredis

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


# --- subscriptions (issue #15): real Redis, pushes as from another process ----


class Inbox:
    """A member that keeps what it is handed."""

    def __init__(self) -> None:
        self.messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def deliver(self, message: dict[str, Any]) -> bool:
        self.messages.put_nowait(message)
        return True

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        return await asyncio.wait_for(self.messages.get(), timeout)


async def publish_elsewhere(redis: Any, group: str, message: dict[str, Any]) -> None:
    """As another process's ``fanout.publish`` does (another origin)."""
    await redis.publish(fanout.channel_for(group), json.dumps({"o": "elsewhere", "m": message}))


@contextlib.asynccontextmanager
async def elsewhere() -> AsyncIterator[Any]:
    redis = aioredis.Redis.from_url(settings.REDIS_URL)
    try:
        yield redis
    finally:
        await redis.aclose()


async def leave_all(members: list[tuple[str, Inbox]]) -> None:
    for group, member in members:
        await fanout.leave(group, member)


def test_members_joining_at_once_on_a_fresh_hub_all_hear_other_processes() -> None:
    async def scenario() -> None:
        async with elsewhere() as redis:
            for round_ in range(5):  # each round starts a fresh hub
                members = [(f"t-fresh-{round_}-{i % 12}", Inbox()) for i in range(40)]
                try:
                    await asyncio.gather(*(fanout.join(g, m) for g, m in members))
                    for group in {g for g, _ in members}:
                        await publish_elsewhere(redis, group, {"type": "game.push", "to": group})
                    for group, member in members:
                        assert (await member.next()) == {"type": "game.push", "to": group}
                finally:
                    await leave_all(members)

    run(scenario)


def test_a_push_published_here_reaches_its_members_once() -> None:
    """Redis hands this process's own publish back to its listener; the
    members had it directly, so the echo is dropped, and the push another
    process sends after it is the next they hear."""

    async def scenario() -> list[Any]:
        inbox = Inbox()
        await fanout.join("t-own", inbox)
        try:
            await asyncio.to_thread(fanout.publish, [("t-own", {"type": "game.push", "n": 1})])
            async with elsewhere() as redis:
                await publish_elsewhere(redis, "t-own", {"type": "game.push", "n": 2})
            return [(await inbox.next())["n"], (await inbox.next())["n"]]
        finally:
            await fanout.leave("t-own", inbox)

    assert run(scenario) == [1, 2]


def test_an_audience_left_and_joined_at_once_stays_subscribed() -> None:
    async def scenario() -> None:
        async with elsewhere() as redis:
            for keep_hub in (False, True):
                steady = [("t-churn-steady", Inbox())] if keep_hub else []
                for group, member in steady:
                    await fanout.join(group, member)
                current = Inbox()
                await fanout.join("t-churn", current)
                try:
                    for i in range(12):
                        new = Inbox()
                        if i % 3 == 0:  # the leave's UNSUBSCRIBE may go out first
                            await asyncio.gather(
                                fanout.leave("t-churn", current), fanout.join("t-churn", new)
                            )
                        elif i % 3 == 1:  # the join comes first
                            await asyncio.gather(
                                fanout.join("t-churn", new), fanout.leave("t-churn", current)
                            )
                        else:  # the UNSUBSCRIBE is on its way when the join comes
                            await fanout.leave("t-churn", current)
                            await asyncio.sleep(0)
                            await fanout.join("t-churn", new)
                        current = new
                        await publish_elsewhere(redis, "t-churn", {"type": "game.push", "n": i})
                        assert (await current.next()) == {"type": "game.push", "n": i}
                finally:
                    await leave_all([("t-churn", current), *steady])

    run(scenario)


def test_a_lost_listener_connection_resubscribes_and_members_resync() -> None:
    async def scenario() -> None:
        async with elsewhere() as redis:
            members = [(f"t-lost-{i % 3}", Inbox()) for i in range(6)]
            await asyncio.gather(*(fanout.join(g, m) for g, m in members))
            try:
                # Cut this process's listener connection(s), and only those.
                killed = 0
                for client in await redis.client_list():
                    if client.get("name") == fanout.listener_name():
                        killed += await redis.client_kill_filter(_id=client["id"])
                assert killed >= 1  # (a hub of an earlier test's closed loop is harmless)
                for _, member in members:
                    assert (await member.next(timeout=10)) == fanout.RESYNC
                for group in {g for g, _ in members}:
                    await publish_elsewhere(redis, group, {"type": "game.push", "to": group})
                for group, member in members:
                    assert (await member.next()) == {"type": "game.push", "to": group}
            finally:
                await leave_all(members)

    run(scenario)
