"""``manage.py verify_games``: every stored game replays to its stored state.

Run after restoring a backup (docs/operations.md) or after a soak: each
game's position is rebuilt from its secret and its logged moves alone and
compared with the state the site saved, and the engine's invariants are
checked on it. Exits non-zero naming each game that does not match.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engine
from games.models import Game
from games.web.replay import load_replay


def check_game(game: Game) -> list[str]:
    """What is wrong with ``game``'s stored state, if anything."""
    replay = load_replay(game)
    state = replay.state_at(replay.steps)
    problems = []
    if engine.to_dict(state) != game.state:
        problems.append(f"its {replay.steps} logged moves replay to a different position")
    problems += engine.check_invariants(state)
    return problems


class Command(BaseCommand):
    help = "Replay every started game from its logged moves and compare with its stored state."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--status",
            choices=["all", *[s.value for s in Game.Status if s != Game.Status.LOBBY]],
            default="all",
            help="only games in this status (default: every started game)",
        )
        parser.add_argument("--game", action="append", default=[], help="a game's public id")

    def handle(self, *args: Any, **opts: Any) -> None:
        games = Game.objects.exclude(state=None).order_by("pk")
        if opts["status"] != "all":
            games = games.filter(status=opts["status"])
        if opts["game"]:
            games = games.filter(public_id__in=opts["game"])
        checked = failed = 0
        for game in games.iterator():
            checked += 1
            problems = check_game(game)
            if problems:
                failed += 1
                for problem in problems:
                    self.stdout.write(self.style.ERROR(f"FAIL {game.public_id}: {problem}"))
        if failed:
            raise CommandError(f"{failed} of {checked} games do not replay to their stored state.")
        self.stdout.write(self.style.SUCCESS(f"{checked} games replay to their stored state."))
