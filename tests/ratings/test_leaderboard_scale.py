"""The leaderboard stays an indexed query however many players there are."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from ratings.leaderboard import own_rank, ranked
from ratings.models import PlayerRating, Pool

# Builds a large table (about 20 s): with the long runs (`make test-long`, which CI runs).
pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.fixture
def many_players() -> list[User]:
    """100,000 rated players, most of them on the board."""
    count = 100_000
    users = User.objects.bulk_create(
        User(username=f"u{i:06d}", email=f"u{i}@example.com", password="!") for i in range(count)
    )
    now = timezone.now()
    PlayerRating.objects.bulk_create(
        (
            PlayerRating(
                user=user, pool=Pool.REGULAR, mu=20 + (i * 7919 % 1000) / 50, sigma=2,
                ordinal=14 + (i * 7919 % 1000) / 50, games=5 if i % 10 == 0 else 12,
                last_game_at=now,
            )
            for i, user in enumerate(users)
        ),
        batch_size=5000,
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ratings_playerrating")
    return users


def test_leaderboard_page_and_own_rank_use_the_index(many_players: list[User]) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN plans are checked on PostgreSQL, the production database")
    page = ranked(Pool.REGULAR)[50_000:50_050]
    plan = page.explain()
    assert "rating_board_idx" in plan, plan
    assert "Sort" not in plan.split("->")[0], plan

    rank, mine = own_rank(Pool.REGULAR, many_players[-1])
    assert rank is not None and mine is not None
    ahead = ranked(Pool.REGULAR).filter(ordinal__gt=mine.ordinal)
    assert "rating_board_idx" in ahead.explain(), ahead.explain()
    # The rank agrees with a count done the slow way.
    board = sorted(
        ranked(Pool.REGULAR).values_list("ordinal", "user_id"), key=lambda r: (-r[0], r[1])
    )
    assert board.index((mine.ordinal, mine.user_id)) + 1 == rank
