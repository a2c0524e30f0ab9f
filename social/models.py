"""Private messages (one conversation per pair of people), and the trades
the collusion check found lopsided (``social.collusion``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LopsidedTrade(models.Model):
    """An accepted trade in a rated game that moved value one way: the
    repeated pattern between two accounts is counted from these rows."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    trade = models.PositiveIntegerField(help_text="The engine's trade id within the game.")
    giver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    taker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
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
