"""``python manage.py create_api_token USER [--scopes play,read] [--name …]``:
prints the new token alone on its last line."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from api import tokens


class Command(BaseCommand):
    help = "Make a personal API token for USER and print it (alone, on the last line)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--scopes",
            default="",
            help="Comma-separated among play, read and bot (default: play,read for a person, "
            "bot for a bot account).",
        )
        parser.add_argument("--name", default="", help="To tell the user's tokens apart.")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"No user {options['username']!r}.")
        try:
            row, token = tokens.issue(
                user,
                scopes=options["scopes"].split(",")
                if options["scopes"]
                else tokens.default_scopes(user),
                name=options["name"],
            )
        except tokens.TokenError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(f"Token {row.prefix} for {user} with scopes {', '.join(row.scopes)}:")
        self.stdout.write(token)
