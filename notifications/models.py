"""In-site notifications, and the throttle that keeps "your turn" email rare."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Notification(models.Model):
    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        REMINDER = "reminder", "Reminder"
        TIMEOUT = "timeout", "Timed out"
        TAKEOVER = "takeover", "Seat taken over"
        CLAIM_EXPIRED = "claim_expired", "Rent claim expired"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=200, blank=True)
    # Sending twice is harmless only if the second insert is refused.
    dedupe_key = models.CharField(max_length=120, null=True, blank=True, unique=True)
    emailed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["user", "-created_at"],
                name="notification_unread_idx",
                condition=Q(read_at__isnull=True),
            ),
            models.Index(fields=["user", "-created_at"], name="notification_user_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.text}"


class EmailThrottle(models.Model):
    """The last "your turn" email per player and game (at most one per N hours)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="email_throttle_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.game_id}: {self.last_sent_at}"
