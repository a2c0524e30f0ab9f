"""Commit notices wait for a busy process instead of being dropped.

Every API stream of a Daphne (and every socket) has a channel of the same
process, and channels-redis queues all of that process's messages under one
key: with its default room of 100, a burst of commits while the process's
event loop was busy dropped the notices past the hundredth ("over capacity"),
and a stream whose last notice was dropped (a game's end) heard of it only at
its keep-alive, 20 s later (seen in ``make bench-api``)."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from api import listeners
from tests.live.conftest import run

STREAMS = 3
NOTICES = 150  # per stream: 450 queued for the one process, past the default room


@pytest.mark.parametrize("prefix", ["api-stream.", "specific."])
def test_a_busy_process_gets_every_notice_sent_while_it_read_nothing(prefix: str) -> None:
    async def scenario() -> dict[str, list[int]]:
        layer = get_channel_layer()
        assert layer is not None
        channels = [await layer.new_channel(prefix) for _ in range(STREAMS)]
        groups = [listeners.game_group(-1 - i) for i in range(STREAMS)]
        for group, channel in zip(groups, channels, strict=True):
            await layer.group_add(group, channel)
        try:
            for version in range(1, NOTICES + 1):
                for group in groups:
                    message = {"type": listeners.MESSAGE_TYPE, "version": version}
                    await layer.group_send(group, message)
            heard: dict[str, list[int]] = {channel: [] for channel in channels}
            for channel in channels:
                for _ in range(NOTICES):
                    message = await asyncio.wait_for(layer.receive(channel), 5)
                    heard[channel].append(message["version"])
            return heard
        finally:
            for group, channel in zip(groups, channels, strict=True):
                await layer.group_discard(group, channel)

    heard = run(scenario)
    assert all(versions == list(range(1, NOTICES + 1)) for versions in heard.values())
