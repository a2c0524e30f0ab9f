"""Chat messages. Presence is not stored here: it lives in expiring Redis
entries (``live.presence``), so a dead process cannot leave ghosts behind."""

from __future__ import annotations

from django.conf import settings
from django.db import models

MAX_LENGTH = 300


class ChatMessage(models.Model):
    class Room(models.TextChoices):
        PLAYERS = "players", "Players"
        # Hidden from the players until the game ends, so that nobody
        # watching can help one of them (as on lichess).
        SPECTATORS = "spectators", "Spectators"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    room = models.CharField(max_length=16, choices=Room.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    body = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["game", "room", "-created_at"], name="chat_room_idx")]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.room}: {self.body[:30]}"
