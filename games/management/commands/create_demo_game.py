from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import services


class Command(BaseCommand):
    help = "Create a game with humans and bots; prints its public id on the last line."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bots", type=int, default=3, help="Number of bots (heuristic).")
        parser.add_argument("--bot-kind", default="heuristic", choices=["heuristic", "random"])
        parser.add_argument("--humans", default="", help="Comma-separated usernames to seat.")
        parser.add_argument("--ruleset", default="us-2003", help="Preset name.")
        visibility = parser.add_mutually_exclusive_group()
        visibility.add_argument("--public", dest="public", action="store_true", default=True)
        visibility.add_argument("--private", dest="public", action="store_false")
        parser.add_argument("--turn-seconds", type=int, default=24 * 3600)
        parser.add_argument("--bot-delay-ms", type=int, default=1000)
        parser.add_argument("--start", action="store_true", help="Start the game at once.")

    def handle(self, *args: Any, **options: Any) -> None:
        names = [n.strip() for n in options["humans"].split(",") if n.strip()]
        User = get_user_model()
        humans = []
        for name in names:
            try:
                humans.append(User.objects.get(username=name))
            except User.DoesNotExist:
                raise CommandError(f"No user called {name!r}.") from None
        if options["bots"] < 0:
            raise CommandError("--bots cannot be negative.")
        try:
            game = services.create_seated_game(
                humans=humans,
                bots=[options["bot_kind"]] * options["bots"],
                preset=options["ruleset"],
                is_public=options["public"],
                turn_seconds=options["turn_seconds"],
                bot_delay_ms=options["bot_delay_ms"],
                start=options["start"],
            )
        except services.GameError as exc:
            raise CommandError(exc.message) from None
        state = "started" if options["start"] else "waiting in the lobby"
        self.stdout.write(f"Game {game.public_id} {state}: /games/{game.public_id}/")
        self.stdout.write(game.public_id)
