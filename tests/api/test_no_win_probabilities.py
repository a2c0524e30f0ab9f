"""The API never gives a seated player the win probabilities of their game
(issue #20): they are engine help. ``api/reads.py`` shows the game's state
and legal actions only, whatever estimates are stored."""

from __future__ import annotations

import json
import re

import pytest

from games.models import Game, PositionEstimate
from tests.api.conftest import Api, api_for
from tests.games.conftest import alice, bob, charlie, duel

__all__ = ["alice", "bob", "charlie", "duel"]

PROBABILITY = re.compile(r"win_?prob|probab|estimat|stderr|playout|analysis|chance", re.IGNORECASE)


@pytest.mark.django_db
def test_a_seated_players_game_view_has_no_win_probability_anywhere(duel: Game) -> None:
    PositionEstimate.objects.create(
        game=duel, version=duel.version, playouts=1000,
        probabilities=[0.8125, 0.1875], stderr=[0.0123, 0.0123],
    )  # fmt: skip
    api: Api = api_for(duel.host)  # type: ignore[arg-type]
    answer = api.get(f"/games/{duel.public_id}")
    assert answer.status_code == 200
    body = answer.json()
    assert body["your_seat"] == 0
    text = json.dumps(body)
    for number in ("0.8125", "0.1875", "0.0123"):
        assert number not in text
    # Keys only ("winner" is the state's; a name or an event may say anything).
    keys: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            keys.extend(str(k) for k in value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(body)
    assert not [k for k in keys if PROBABILITY.search(k)]
