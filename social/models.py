"""Private messages: one conversation per pair of people; and the trades the
collusion check found lopsided (``social.collusion``).

A pair is stored ordered (``low`` has the smaller pk) under a unique
constraint, so two first messages racing each other still make one
conversation. Each side keeps the id of the last message it has read;
a conversation is unread for a side while its last message is newer.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q

USER = settings.AUTH_USER_MODEL
MAX_LENGTH = 1000


class Conversation(models.Model):
    low = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    # The newest message, kept here so the inbox lists without a subquery.
    last_message_id = models.BigIntegerField(default=0)
    last_message_at = models.DateTimeField(null=True, blank=True)
    low_read_id = models.BigIntegerField(default=0)
    high_read_id = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="conversation_once_per_pair"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="conversation_low_high"),
        ]
        indexes = [
            models.Index(fields=["high", "-last_message_at"], name="conversation_high_idx"),
            models.Index(fields=["low", "-last_message_at"], name="conversation_low_idx"),
        ]

    def __str__(self) -> str:
        return f"conversation {self.low_id}-{self.high_id}"

    def other_id(self, user_pk: int) -> int:
        return int(self.high_id if self.low_id == user_pk else self.low_id)

    def read_id(self, user_pk: int) -> int:
        return int(self.low_read_id if self.low_id == user_pk else self.high_read_id)

    def is_unread(self, user_pk: int) -> bool:
        return self.last_message_id > self.read_id(user_pk)

    def has(self, user: Any) -> bool:
        return user.pk in (self.low_id, self.high_id)


class Message(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="+")
    sender = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    body = models.TextField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["conversation", "-id"], name="message_conversation_idx")]

    def __str__(self) -> str:
        return f"message {self.pk} in {self.conversation_id}"


class LopsidedTrade(models.Model):
    """An accepted trade in a rated game that moved value one way: the
    repeated pattern between two accounts is counted from these rows."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    trade = models.PositiveIntegerField(help_text="The engine's trade id within the game.")
    giver = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    taker = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    loss = models.IntegerField(help_text="What the trade was worth to the giver, negated.")
    worth = models.IntegerField(help_text="The giver's net worth before the trade.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "trade"], name="lopsided_trade_once")
        ]
        indexes = [models.Index(fields=["giver", "taker"], name="lopsided_pair_idx")]

    def __str__(self) -> str:
        return f"trade {self.trade} of game {self.game_id}: {self.giver_id} to {self.taker_id}"
