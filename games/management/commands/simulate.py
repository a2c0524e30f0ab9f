"""``manage.py simulate``: play bot games in one process; print one JSON object.

All logic lives in the engine (``engine.simulate``) so it is testable without Django.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import native
from games.engine import PRESETS, simulate


class Command(BaseCommand):
    help = "Play bot-vs-bot games with the rules engine and report speed and outcomes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--ruleset", default="us-2003", choices=sorted(PRESETS))
        parser.add_argument("--bot", default="heuristic", choices=["heuristic", "random"])
        parser.add_argument("--jail-policy", default="pay", choices=["pay", "stay"])
        parser.add_argument("--max-turns", type=int, default=1000)
        parser.add_argument("--check-invariants", action="store_true")
        parser.add_argument("--json", action="store_true", help="print JSON (the default)")

    def handle(self, *args: Any, **opts: Any) -> None:
        result = simulate(
            games=opts["games"],
            players=opts["players"],
            seed=opts["seed"],
            ruleset_name=opts["ruleset"],
            bot=opts["bot"],
            jail_policy=opts["jail_policy"],
            max_turns=opts["max_turns"],
            check_invariants=opts["check_invariants"],
        )
        # Which form of the engine played: "compiled" (mypyc) or "pure"
        # (a stale build also runs the pure sources), for reading the speed.
        result["engine_build"] = "compiled" if native.status() == "compiled" else "pure"
        self.stdout.write(json.dumps(result))
