"""Rating updates when a game ends. Called by games.services inside the
transaction that finishes the game, so a game is rated exactly once."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from ratings.models import DISPLAY_SCALE, MU, SIGMA, PlayerRating, Pool, RatingChange, display

SHORT_PRESETS = {"short-2003", "short-classic", "time-limit"}
_MODEL = PlackettLuce()


def pool_for(preset: str, switches: dict[str, Any]) -> str:
    end = switches.get("end_condition")
    if preset in SHORT_PRESETS or (end and end != "last_player"):
        return Pool.SHORT
    return Pool.REGULAR


def rating_pool(game: Any, seats: list[Any]) -> str | None:
    """The pool a game is rated in (its seats' users loaded): the people's
    pool of its rules; the bot accounts' pool if everyone seated is a bot
    account and the host did not let bot accounts into a people's game;
    None for a game mixing the two without that leave (the lobby refuses
    such a seating: this only makes sure it is never rated)."""
    people = [seat.user for seat in seats if seat.user_id is not None]
    bots = [user for user in people if getattr(user, "bot_account", False)]
    if not bots or game.allow_bot_accounts:
        return pool_for(game.preset, game.switches)
    return Pool.BOT if len(bots) == len(people) else None


# Fixed-strength bot opponents (mu, sigma) for games rated with bots; their
# ratings never move, so they anchor the scale instead of drifting with it.
BOT_STRENGTH = {"heuristic": (25.0, 1.0), "random": (12.0, 1.0)}


def is_rated(game: Any, seats: list[Any]) -> bool:
    """Games with bots are unrated unless the host chose otherwise; a game
    needs two people either way."""
    if not getattr(game, "rated", True):
        return False
    humans = [seat for seat in seats if seat.user_id is not None]
    if len(humans) < 2 and not (game.rated_with_bots and humans):
        return False
    return len(humans) == len(seats) or game.rated_with_bots


def rate_game(game: Any) -> list[RatingChange]:
    """Update every seated person's rating from the seats' final ranks.
    Seats with equal ranks tie. Returns the changes (none if unrated)."""
    seats = list(game.seats.select_related("user"))
    if not is_rated(game, seats) or any(seat.final_rank is None for seat in seats):
        return []
    pool = rating_pool(game, seats)
    if pool is None:
        return []
    now = timezone.now()
    with transaction.atomic():
        if RatingChange.objects.filter(game=game).exists():
            return []
        ratings: list[PlayerRating | None] = []
        teams = []
        for seat in seats:
            if seat.user_id is None:
                mu, sigma = BOT_STRENGTH.get(seat.bot_kind, BOT_STRENGTH["heuristic"])
                ratings.append(None)
                teams.append([_MODEL.rating(mu=mu, sigma=sigma)])
                continue
            player, _ = PlayerRating.objects.select_for_update().get_or_create(
                user_id=seat.user_id, pool=pool
            )
            ratings.append(player)
            teams.append([_MODEL.rating(mu=player.mu, sigma=player.sigma)])
        new = _MODEL.rate(teams, ranks=[float(seat.final_rank) for seat in seats])
        changes = []
        for seat, rating, (updated,) in zip(seats, ratings, new, strict=True):
            if rating is None:
                continue
            changes.append(
                RatingChange(
                    user_id=seat.user_id, game=game, pool=pool, rank=seat.final_rank,
                    mu_before=rating.mu, sigma_before=rating.sigma,
                    mu_after=updated.mu, sigma_after=updated.sigma,
                )
            )  # fmt: skip
            rating.mu, rating.sigma = updated.mu, updated.sigma
            rating.ordinal = updated.mu - 3 * updated.sigma
            rating.games += 1
            rating.last_game_at = now
            rating.save(update_fields=["mu", "sigma", "ordinal", "games", "last_game_at"])
        RatingChange.objects.bulk_create(changes)
    return changes


def first_game_example() -> dict[str, int]:
    """Two new players' first game, rated by the site's model: the shown
    changes, and their two parts (the move of the estimate, the same for
    both; and the certainty gained, which raises both)."""
    new = _MODEL.rating(mu=MU, sigma=SIGMA)
    (winner,), (loser,) = _MODEL.rate([[new], [_MODEL.rating(mu=MU, sigma=SIGMA)]], ranks=[1, 2])
    start = display(MU - 3 * SIGMA)
    return {
        "start": start,
        "winner": display(winner.mu - 3 * winner.sigma) - start,
        "loser": display(loser.mu - 3 * loser.sigma) - start,
        "skill": round(DISPLAY_SCALE * (winner.mu - MU)),
        "certainty": round(DISPLAY_SCALE * 3 * (SIGMA - winner.sigma)),
    }
