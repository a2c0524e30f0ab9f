"""Plays a spread of bot games and prints one digest of everything they did.

Run as ``python tests/engine/native_probe.py pure|native``: ``pure`` makes
the process import the engine from its ``.py`` sources even where a mypyc
build exists, so the two digests compare the compiled engine with its
sources (tests/engine/test_native.py).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# (preset, players, bot, jail policy) with a few seeds each.
CONFIGS = [
    ("us-2003", 4, "heuristic", "pay"),
    ("us-2003", 3, "random", "stay"),
    ("us-2008", 5, "heuristic", "stay"),
    ("uk", 4, "heuristic", "pay"),
    ("uk", 6, "random", "pay"),
    ("short-2003", 2, "heuristic", "stay"),
    ("short-classic", 8, "random", "stay"),
    ("time-limit", 4, "heuristic", "pay"),
    ("quick-web", 6, "heuristic", "pay"),
]


def digest(seeds: int = 3, max_turns: int = 300) -> tuple[str, int]:
    from games import engine
    from games.engine.sim import game_seed

    h = hashlib.sha256()
    actions = 0
    for preset, players, bot, jail in CONFIGS:
        for i in range(seeds):
            seed = game_seed(7, i)
            s = engine.new_game(preset, [f"p{k}" for k in range(players)], seed)
            bots = [engine.make_bot(bot, jail, seed + k) for k in range(players)]
            while not s.finished and s.turn_no < max_turns:
                p = engine.next_actor(s)
                a = bots[p].act(s, p)
                s, events = engine.apply(s, a)
                h.update(json.dumps(a.to_dict(), sort_keys=True).encode())
                for e in events:
                    h.update(engine.render_event(e, s.rules, s.names).encode())
                    h.update(json.dumps(e.to_dict(), sort_keys=True).encode())
                actions += 1
                if actions % 50 == 0:
                    assert not engine.check_invariants(s), engine.check_invariants(s)
            h.update(json.dumps(engine.to_dict(s), sort_keys=True).encode())
    return h.hexdigest(), actions


def main(mode: str) -> None:
    if mode == "pure":
        from games import native

        native.prefer_sources()
    from games.engine import game

    value, actions = digest()
    print(json.dumps({"digest": value, "actions": actions, "game_module": game.__file__}))


if __name__ == "__main__":
    main(sys.argv[1])
