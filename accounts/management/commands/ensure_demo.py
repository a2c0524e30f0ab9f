from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password-123"


class Command(BaseCommand):
    help = "Create the demo account (and, once lobbies exist, a demo game) if missing."

    def handle(self, *args: Any, **options: Any) -> None:
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"email": "demo@example.com", "display_name": "Demo Player"},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        verb = "Created" if created else "Demo account ready"
        self.stdout.write(f"==> {verb}: log in as {DEMO_USERNAME} / {DEMO_PASSWORD}")
        self._ensure_demo_game()

    def _ensure_demo_game(self) -> None:
        # A public 4-bot game in play gives a newcomer something to watch.
        from games import services
        from games.models import Game

        running = Game.objects.filter(
            status=Game.Status.ACTIVE, is_public=True, seats__bot_kind="heuristic"
        ).exclude(seats__user__isnull=False)
        if running.exists():
            game = running.first()
        else:
            game = services.create_seated_game(humans=[], bots=["heuristic"] * 4, start=True)
        assert game is not None
        self.stdout.write(f"==> Demo game with 4 bots: /games/{game.public_id}/")
