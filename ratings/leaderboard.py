"""Leaderboard queries: every figure comes from an indexed query, never a Python sort."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from ratings.models import PROVISIONAL_GAMES, PlayerRating

ACTIVE_DAYS = 30
PROVISIONAL_SHOWN = 20


def ranked(pool: str) -> QuerySet[PlayerRating]:
    """Players on the board: enough rated games, and one of them recent."""
    cutoff = timezone.now() - timedelta(days=ACTIVE_DAYS)
    return PlayerRating.objects.filter(
        pool=pool, games__gte=PROVISIONAL_GAMES, last_game_at__gte=cutoff
    ).order_by("-ordinal", "user_id")


def provisional(pool: str) -> QuerySet[PlayerRating]:
    """Recent players with fewer rated games than the board asks, shown
    apart, best first: the shown rating (mu - 3 sigma) is already cautious
    about a player with few games, so it orders them sensibly too."""
    cutoff = timezone.now() - timedelta(days=ACTIVE_DAYS)
    return PlayerRating.objects.filter(
        pool=pool, games__gt=0, games__lt=PROVISIONAL_GAMES, last_game_at__gte=cutoff
    ).order_by("-ordinal", "user_id")


def own_rank(pool: str, user: Any) -> tuple[int | None, PlayerRating | None]:
    """The user's place on the board (None if not on it) and their rating."""
    if not getattr(user, "is_authenticated", False):
        return None, None
    mine = PlayerRating.objects.filter(pool=pool, user=user).first()
    board = ranked(pool)
    if mine is None or not board.filter(pk=mine.pk).exists():
        return None, mine
    ahead = board.filter(
        Q(ordinal__gt=mine.ordinal) | Q(ordinal=mine.ordinal, user_id__lt=mine.user_id)
    ).count()
    return ahead + 1, mine
