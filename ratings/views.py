from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ratings.leaderboard import ACTIVE_DAYS, PROVISIONAL_SHOWN, own_rank, provisional, ranked
from ratings.models import DISPLAY_BASE, DISPLAY_SCALE, MU, PROVISIONAL_GAMES, SIGMA, Pool
from ratings.services import first_game_example

PAGE_SIZE = 50


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    pool = request.GET.get("pool", Pool.REGULAR)
    if pool not in Pool.values:
        pool = Pool.REGULAR
    page = Paginator(ranked(pool).select_related("user"), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rank, mine = own_rank(pool, request.user)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "pool": pool,
            "pools": Pool.choices,
            "page": page,
            "first_rank": page.start_index(),
            "my_rank": rank,
            "my_rating": mine,
            "my_rank_on_page": rank is not None and page.start_index() <= rank <= page.end_index(),
            "my_page": (rank - 1) // PAGE_SIZE + 1 if rank else None,
            # Beside the first page only, so a new site's board is not empty.
            "provisional": (
                provisional(pool).select_related("user")[:PROVISIONAL_SHOWN]
                if page.number == 1
                else []
            ),
            "provisional_games": PROVISIONAL_GAMES,
            "active_days": ACTIVE_DAYS,
        },
    )


@require_GET
def ratings_explained(request: HttpRequest) -> HttpResponse:
    """How ratings work, and why one game moves a winner more than a loser."""
    return render(
        request,
        "ratings/explained.html",
        {
            "example": first_game_example(),
            "base": round(DISPLAY_BASE),
            "scale": round(DISPLAY_SCALE),
            "mu": round(MU),
            "sigma": round(SIGMA, 2),
            "provisional_games": PROVISIONAL_GAMES,
            "active_days": ACTIVE_DAYS,
        },
    )
