"""The live channel of a running game never carries its future: neither
the snapshot on connect nor the pushes of later moves, for any viewer."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.models import Game
from tests.games.test_fair_dice import assert_no_leak, play
from tests.live.conftest import collect, communicator, frames, run

pytestmark = pytest.mark.usefixtures("live_db")


def test_no_snapshot_or_push_reveals_the_secret_or_the_card_order(
    duel: Game, alice: User, bob: User, charlie: User
) -> None:
    async def scenario() -> None:
        sockets = {
            "anonymous": communicator(f"/ws/games/{duel.public_id}/"),
            "spectator": communicator(f"/ws/games/{duel.public_id}/", charlie),
            "alice": communicator(f"/ws/games/{duel.public_id}/", alice),
            "bob": communicator(f"/ws/games/{duel.public_id}/", bob),
        }
        received: dict[str, list[str]] = {}
        for who, comm in sockets.items():
            assert (await comm.connect())[0]
            received[who] = await collect(comm)
        await database_sync_to_async(play)(duel, 6)
        for who, comm in sockets.items():
            received[who] += await collect(comm)
            await comm.disconnect()
        await database_sync_to_async(duel.refresh_from_db)()
        for who, messages in received.items():
            assert frames(messages, "snapshot") and frames(messages, "push"), who
            for message in messages:
                assert_no_leak(f"a frame to {who}", message.encode(), duel)

    run(scenario)
