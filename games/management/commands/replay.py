"""``manage.py replay FILE``: replay a game record; print the final state JSON.

All logic lives in the engine (``engine.replay_file``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import EngineError, replay_file


class Command(BaseCommand):
    help = "Replay a game record (ruleset, players, seed, actions) and print the final state."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a JSON game record")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            self.stdout.write(replay_file(opts["file"]))
        except (OSError, ValueError, EngineError) as exc:
            raise CommandError(str(exc)) from exc
