"""Game records: (ruleset, players, seed, actions) as JSON, and replay."""

from __future__ import annotations

import json
from typing import Any

from .actions import Action, action_from_dict
from .codec import to_dict
from .errors import CodecError
from .events import Event, EventLog, as_events
from .game import as_ruleset, new_game, step
from .rules import Ruleset
from .state import SCHEMA_VERSION, State


def make_record(
    rules: Ruleset | str | dict[str, Any], players: list[str], seed: int, actions: list[Action]
) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "ruleset": as_ruleset(rules).to_dict(),
        "players": list(players),
        "seed": seed,
        "actions": [a.to_dict() for a in actions],
    }


def replay(record: dict[str, Any], events: list[Event] | None = None) -> State:
    """Rebuild the state by replaying every action of ``record``."""
    try:
        rules = record["ruleset"]
        players = record["players"]
        seed = int(record["seed"])
        actions = [action_from_dict(a) for a in record["actions"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise CodecError(f"Unreadable game record: {exc}") from exc
    log: EventLog = []
    s = new_game(rules, players, seed, events)
    for a in actions:
        step(s, a, log)
    if events is not None:
        events.extend(as_events(log))
    return s


def replay_file(path: str) -> str:
    """Replay a record file and return the final state as JSON text."""
    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    return json.dumps(to_dict(replay(record)), sort_keys=True)
