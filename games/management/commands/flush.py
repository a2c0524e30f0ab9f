"""Django's ``flush``, allowed to empty the game tables with the others (the
tests' teardown, a developer's reset; ``DELETE FROM`` on SQLite and in
``tests/flushing.py``). The write guard (``games.writeguard``) refuses any
other writer in the tests and in debug mode. An app's command of the same
name replaces Django's, as documented."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush

from games.writeguard import writes_allowed


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        with writes_allowed("flush empties every table"):
            super().handle(**options)
