"""``GET /api/v1/games/{id}/stream`` on a real Daphne: every version in
order, resumed after a disconnect without a gap, the end, the channel
layer group released, and authorization."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from api import listeners
from games.models import Game
from tests.api.conftest import api_for
from tests.api.streams import Stream, site, state_at, wait_for
from tests.games.conftest import duel
from tests.live.conftest import move

__all__ = ["duel", "site"]


def versions_of(lines: list[dict[str, Any]], kind: str) -> list[int]:
    return [line["version"] for line in lines if line["type"] == kind]


def test_the_stream_delivers_every_version_in_order_and_resumes_without_a_gap(
    site: str, duel: Game, alice: User
) -> None:
    token = api_for(alice, "read").token
    url = f"{site}/api/v1/games/{duel.public_id}/stream"
    first = Stream(f"{url}?since=0", token, stop=state_at(4))
    assert first.until(state_at(1))["your_seat"] == 0
    assert first.status == 200 and first.content_type == "application/x-ndjson"
    for version in (2, 3, 4):
        assert move(duel) == version
        first.until(state_at(version))  # live, not caught up: the stream was open
    first.rest()
    # Gone: its group on the channel layer and its entry are released.
    group = listeners.game_group(duel.pk)
    wait_for(lambda: not listeners.layer_members(group) and not listeners.readers(group))

    while_away = [move(duel) for _ in range(3)]
    assert while_away == [5, 6, 7]
    second = Stream(f"{url}?since=4", token, stop=state_at(9))
    second.until(state_at(7))
    for version in (8, 9):
        assert move(duel) == version
    second.rest()

    lines = first.seen + second.seen
    assert versions_of(lines, "events") == list(range(1, 10))  # each once, in order
    assert all(line["version"] <= 9 for line in lines)
    events = [line for line in lines if line["type"] == "events"]
    assert events[0]["events"][0]["kind"] == "start"
    assert all(line["events"] for line in events)  # each version did something
    assert versions_of(second.seen, "state")[0] == 7  # caught up, then the state
