"""OpenSkill (Plackett-Luce) ratings, one per player per pool, and their history."""

from __future__ import annotations

from django.conf import settings
from django.db import models

MU = 25.0
SIGMA = 25.0 / 3
PROVISIONAL_GAMES = 10
# Shown ratings are scaled like the familiar chess-style numbers:
# 1500 + 40 * (mu - 3 sigma) puts a new player at 1500 and a strong one near 2300.
DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 40.0


def display(ordinal: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal)


class Pool(models.TextChoices):
    REGULAR = "regular", "Regular games"
    SHORT = "short", "Short and time-limit games"
    BOT = "bot", "Bot accounts"


class PlayerRating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    pool = models.CharField(max_length=16, choices=Pool.choices)
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    # mu - 3 sigma, stored so the leaderboard sorts and counts on an index.
    ordinal = models.FloatField(default=MU - 3 * SIGMA)
    games = models.PositiveIntegerField(default=0)
    last_game_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], name="rating_user_pool_unique")
        ]
        indexes = [
            models.Index(
                fields=["pool", "-ordinal", "user"],
                name="rating_board_idx",
                condition=models.Q(games__gte=PROVISIONAL_GAMES),
            ),
            models.Index(
                fields=["pool", "-ordinal", "user"],
                name="rating_provisional_idx",
                condition=models.Q(games__gt=0, games__lt=PROVISIONAL_GAMES),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.pool}: {self.shown}"

    @property
    def shown(self) -> int:
        return display(self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class RatingChange(models.Model):
    """One rated game's effect on one player: the rating history."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    pool = models.CharField(max_length=16, choices=Pool.choices)
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="rating_change_once_per_game")
        ]
        indexes = [models.Index(fields=["user", "pool", "created_at"], name="rating_history_idx")]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_id}: {self.delta:+d}"

    @property
    def before(self) -> int:
        return display(self.mu_before - 3 * self.sigma_before)

    @property
    def after(self) -> int:
        return display(self.mu_after - 3 * self.sigma_after)

    @property
    def delta(self) -> int:
        return self.after - self.before
