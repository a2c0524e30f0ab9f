"""Django's ``migrate``, allowed to write the game tables: migrations own
them (a data migration rewrites rows the services wrote). The write guard
(``games.writeguard``) refuses any other writer in the tests and in debug
mode. An app's command of the same name replaces Django's, as documented."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import migrate

from games.writeguard import writes_allowed


class Command(migrate.Command):
    def handle(self, *args: Any, **options: Any) -> Any:
        with writes_allowed("migrations own the game tables"):
            return super().handle(*args, **options)
