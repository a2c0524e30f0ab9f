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
