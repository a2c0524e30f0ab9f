"""``manage.py verify_record FILE``: check a finished game's fair dice.

All logic lives in ``engine.verify_record``, which needs only the
engine (Python's standard library): the same check runs without the site.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import CodecError, verify_record


class Command(BaseCommand):
    help = (
        "Check a finished game's record: its secret against the commitment, the dice key "
        "made of the secret and the players' seeds, and every throw, card and the final "
        "position against a replay from that key and the moves."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a game record (record.json) of a finished game")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            with open(opts["file"], encoding="utf-8") as f:
                record = json.load(f)
            if not isinstance(record, dict):
                raise CodecError("A game record is a JSON object.")
            result = verify_record(record)
        except (OSError, ValueError, CodecError) as exc:
            raise CommandError(str(exc)) from exc
        for name, passed, detail in result.checks:
            mark = self.style.SUCCESS("ok  ") if passed else self.style.ERROR("FAIL")
            self.stdout.write(f"{mark} {name}: {detail}")
        if not result.ok:
            raise CommandError("The record does NOT verify.")
        source = (
            "the committed secret and the players' seeds"
            if record.get("seeds") is not None
            else "the committed secret alone (the record has no player seeds)"
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"The record verifies: every throw and card came from {source}, "
                "and nothing changed after the start."
            )
        )
