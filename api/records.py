"""Records and data: a finished game's record, the leaderboards, profiles
and the watch list, as the site's pages show them (``games.web.replay``,
``ratings.leaderboard``, ``accounts.profile``, ``live.watch``)."""

from __future__ import annotations

from typing import Any, Literal

from django.core.paginator import Paginator
from django.http import HttpRequest
from ninja import Field, Path, Query, Router, Schema

from accounts.models import User
from accounts.profile import profile_context
from api.auth import need, visible
from api.models import SCOPE_READ
from api.openapi import USERNAME
from api.problems import ERRORS, Problem, ProblemOut
from games.models import Game
from games.web.replay import load_replay
from live.watch import watch_rows
from ratings.leaderboard import PROVISIONAL_SHOWN, provisional, ranked
from ratings.models import Pool

router = Router(tags=["records and data"])

GameId = Path(..., pattern=r"^[A-Za-z0-9]{1,16}$", description="The game's public id.")  # type: ignore[type-arg]
PoolName = Literal[tuple(Pool.values)]  # type: ignore[valid-type]
PAGE_SIZE = 50
POOL = Query("regular", description="regular, short or bot.")  # type: ignore[type-arg]
PAGE = Query(1, ge=1, le=100_000, description="The page, 50 players each.")  # type: ignore[type-arg]
SORT = Query(  # type: ignore[type-arg]
    "recent", description="recent: latest move first; spectators: most watched first."
)


@router.get(
    "/games/{game_id}/record.json",
    response={200: dict[str, Any], 409: ProblemOut, **ERRORS},
    summary="A finished game's record",
)
def record(request: HttpRequest, game_id: str = GameId) -> dict[str, Any]:
    """The site's own record export (the page's record.json): the moves,
    the outcomes and, the game being over, its revealed secret and the
    players' seeds, which /fair-dice/verify and ``verify_record`` check
    against the commitment published at the game's creation and the dice
    (docs/fair-dice.md). 409 while the game is waiting or in play."""
    user = need(request, SCOPE_READ)
    game = visible(game_id, user).game
    if not game.has_ended:
        state = "has not started" if game.status == Game.Status.LOBBY else "is still in play"
        raise Problem(
            409,
            f"This game {state}: its record, with its secret, is published once it ends. "
            "Follow it with GET /api/v1/games/{id} meanwhile.",
            slug="game-not-over",
        )
    if game.state is None:
        raise Problem(409, "This game ended before it started: it has no record.", slug="no-record")
    return load_replay(game).record()


class BoardRow(Schema):
    rank: int | None = Field(description="Place on the board; null for a provisional player.")
    username: str = Field(description="The player's username (their profile's name).")
    name: str = Field(description="The name the site shows.")
    bot_account: bool = Field(description="A bot account (shown with a BOT badge).")
    rating: int = Field(description="The shown rating: 1500 + 40 (mu - 3 sigma).")
    games: int = Field(description="Rated games in this pool.")


class LeaderboardOut(Schema):
    pool: str = Field(description="regular, short or bot (bot accounts' own pool).")
    pools: dict[str, str] = Field(description="Every pool and its label.")
    page: int = Field(description="This page's number, from 1.")
    pages: int = Field(description="How many pages the board has.")
    rows: list[BoardRow] = Field(description="The ranked players on this page, best first.")
    provisional: list[BoardRow] = Field(
        description="On page 1: recent players with fewer than 10 rated games, best first."
    )


def _row(rating: Any, rank: int | None) -> dict[str, Any]:
    return {
        "rank": rank,
        "username": rating.user.username,
        "name": rating.user.public_name,
        "bot_account": rating.user.bot_account,
        "rating": rating.shown,
        "games": rating.games,
    }


@router.get("/leaderboard", response={200: LeaderboardOut, **ERRORS}, summary="A leaderboard")
def leaderboard(
    request: HttpRequest,
    pool: PoolName = POOL,  # type: ignore[valid-type]
    page: int = PAGE,
) -> dict[str, Any]:
    """The site's leaderboard: ranked players (10 rated games or more, one
    in the last 30 days) and, on page 1, the provisional ones. Bot accounts
    have a pool of their own (``bot``)."""
    need(request, SCOPE_READ)
    paginator = Paginator(ranked(pool).select_related("user"), PAGE_SIZE)
    shown = paginator.get_page(page)
    first = shown.start_index()
    return {
        "pool": pool,
        "pools": dict(Pool.choices),
        "page": shown.number,
        "pages": paginator.num_pages,
        "rows": [_row(r, first + i) for i, r in enumerate(shown.object_list)],
        "provisional": [
            _row(r, None) for r in provisional(pool).select_related("user")[:PROVISIONAL_SHOWN]
        ]
        if shown.number == 1
        else [],
    }


class PoolRating(Schema):
    rating: int = Field(description="The shown rating.")
    games: int = Field(description="Rated games in the pool.")
    provisional: bool = Field(description="Fewer than 10 rated games: still settling.")


class ProfileOut(Schema):
    username: str = Field(description="The username.")
    name: str = Field(description="The name the site shows.")
    bot_account: bool = Field(description="A bot account: plays through the API, BOT badge.")
    member_since: str = Field(description="When the account was made (ISO 8601).")
    ratings: dict[str, PoolRating | None] = Field(
        description="By pool (regular, short, bot): null without rated games there."
    )
    played: int = Field(description="Games started or finished.")
    finished: int = Field(description="Games played to the end without resigning.")
    won: int = Field(description="Games won.")
    on_time: int | None = Field(description="Percent of decisions made before the deadline.")
    current_games: list[str] = Field(description="Games in play you may see, by id.")
    recent_games: list[str] = Field(description="Finished games you may see, newest first.")


def profile_of(player: Any, viewer: Any) -> dict[str, Any]:
    context = profile_context(player, viewer)
    counts = context["counts"]
    ratings = {rating.pool: rating for rating in player.ratings.all()}
    return {
        "username": player.username,
        "name": player.public_name,
        "bot_account": player.bot_account,
        "member_since": player.date_joined.isoformat(),
        "ratings": {
            pool: {"rating": r.shown, "games": r.games, "provisional": r.provisional}
            if (r := ratings.get(pool)) is not None
            else None
            for pool in Pool.values
        },
        "played": counts["played"],
        "finished": counts["finished"],
        "won": counts["won"],
        "on_time": counts["on_time"],
        "current_games": [row["game"].public_id for row in context["current_games"]],
        "recent_games": [row["seat"].game.public_id for row in context["recent_games"]],
    }


@router.get("/users/{username}", response={200: ProfileOut, **ERRORS}, summary="A profile")
def profile(
    request: HttpRequest,
    username: str = Path(..., pattern=USERNAME, description="The username."),  # type: ignore[type-arg]
) -> dict[str, Any]:
    """A player's profile, as its page shows it: ratings by pool, record
    and games (only those you may see are listed)."""
    viewer = need(request, SCOPE_READ)
    player = User.objects.filter(username=username, is_active=True).first()
    if player is None:
        raise Problem(404, "There is no such player.")
    return profile_of(player, viewer)


class WatchPlayer(Schema):
    name: str = Field(description="The name the site shows.")
    bot: bool = Field(description="A site bot.")
    bot_account: bool = Field(description="A bot account (a program playing through the API).")
    out: bool = Field(description="Bankrupt or resigned.")
    rating: int | None = Field(description="Their rating in the game's pool, if any.")


class WatchRow(Schema):
    id: str = Field(description="The game's id: GET /games/{id} to follow it.")
    preset: str = Field(description="The ruleset preset.")
    players: list[WatchPlayer] = Field(description="The seats, in order.")
    turn: int = Field(description="The turn number, from 1.")
    turn_name: str = Field(description="Whose turn it is.")
    watching: int = Field(description="Spectators on the page now.")
    updated_at: str = Field(description="The last move (ISO 8601).")


@router.get("/watch", response={200: list[WatchRow], **ERRORS}, summary="The watch list")
def watch(
    request: HttpRequest,
    sort: Literal["recent", "spectators"] = SORT,
) -> list[dict[str, Any]]:
    """Public games in play, as the watch page lists them."""
    need(request, SCOPE_READ)
    return [
        {
            "id": row["game"].public_id,
            "preset": row["game"].preset,
            "players": [
                {
                    "name": p["name"],
                    "bot": p["is_bot"],
                    "bot_account": p["bot_account"],
                    "out": p["out"],
                    "rating": p["rating"],
                }
                for p in row["players"]
            ],
            "turn": row["turn_no"],
            "turn_name": row["turn_name"],
            "watching": row["watching"],
            "updated_at": row["game"].updated_at.isoformat(),
        }
        for row in watch_rows(sort)
    ]
