"""What the profile page shows, gathered in a fixed number of queries."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, Q, Sum
from django.db.models.functions import Coalesce

from common.charts import line_chart
from games import engine
from games.comebacks import best_comebacks
from games.models import Game, Seat
from games.wording import game_money
from people.models import Block, Follow, Mute
from ratings.models import DISPLAY_BASE, PlayerRating, Pool, RatingChange

POOL_COLOURS: dict[str, str] = {
    Pool.REGULAR: "#0072B2",
    Pool.SHORT: "#E69F00",
    Pool.BOT: "#009E73",
}


def _listed(viewer: Any) -> Q:
    """The games a profile may link to for ``viewer``: public ones, and
    private ones the viewer is seated in (to anyone else they do not exist)."""
    listed = Q(game__is_public=True)
    if getattr(viewer, "is_authenticated", False):
        listed |= Q(game__in=Seat.objects.filter(user=viewer).values("game_id"))
    return listed


def profile_context(player: Any, viewer: Any = None) -> dict[str, Any]:
    """The counts and ratings include every game; the lists of games only
    those ``viewer`` may see."""
    listed = _listed(viewer)
    seats = Seat.objects.filter(user=player)
    counts = seats.aggregate(
        played=Count("pk", filter=Q(game__status__in=[Game.Status.ACTIVE, Game.Status.FINISHED])),
        finished=Count(
            "pk", filter=Q(game__status=Game.Status.FINISHED) & ~Q(status=Seat.Status.RESIGNED)
        ),
        won=Count("pk", filter=Q(game__status=Game.Status.FINISHED, final_rank=1)),
        # Reliability: decisions left to the timer, and seats handed to a bot.
        timeouts=Coalesce(Sum("timeouts_total"), 0),
        takeovers=Coalesce(Sum("takeovers_total"), 0),
        decisions=Coalesce(Sum("decisions_total"), 0),
    )
    # Tournament no-shows (a first decision left to the timer), read through
    # the relation ``tournaments`` declares: accounts sits below it.
    counts["no_shows"] = player.tournament_entries.aggregate(n=Coalesce(Sum("no_shows"), 0))["n"]
    answered = counts["decisions"] + counts["timeouts"]
    counts["on_time"] = round(100 * counts["decisions"] / answered) if answered else None
    ratings = {r.pool: r for r in PlayerRating.objects.filter(user=player)}
    history = list(
        RatingChange.objects.filter(user=player)
        .order_by("created_at")
        .values_list("pool", "mu_after", "sigma_after")
    )
    series = []
    for pool, label in Pool.choices:
        points = [DISPLAY_BASE] + [
            DISPLAY_BASE + 40 * (mu - 3 * sigma) for p, mu, sigma in history if p == pool
        ]
        if len(points) > 1:
            series.append((label, POOL_COLOURS[pool], points))
    changes = {
        c.game_id: c
        for c in RatingChange.objects.filter(user=player, game__in=_recent_ids(player, listed))
    }
    return {
        "counts": counts,
        # The bot accounts' pool only for those who can be rated in it.
        "ratings": [
            (label, ratings.get(pool))
            for pool, label in Pool.choices
            if pool != Pool.BOT or player.bot_account or pool in ratings
        ],
        "rating_chart": line_chart(series, title="Rating history", x_label="Rated games")
        if series
        else "",
        "current_games": _current_games(player, listed),
        "tournaments": tournament_results(player, viewer),
        "comebacks": best_comebacks(seats.filter(listed)),
        "recent_games": [
            {
                "seat": seat,
                "change": changes.get(seat.game_id),
                "players": seat.players,
                "worth": None
                if seat.final_net_worth is None
                else game_money(seat.game.state, seat.final_net_worth),
            }
            for seat in seats.filter(listed, game__status=Game.Status.FINISHED)
            .select_related("game")
            .annotate(players=Count("game__seats"))
            .order_by("-game__finished_at")[:20]
        ],
    }


def _recent_ids(player: Any, listed: Q) -> Any:
    return (
        Seat.objects.filter(listed, user=player, game__status=Game.Status.FINISHED)
        .order_by("-game__finished_at")
        .values("game_id")[:20]
    )


def _current_games(player: Any, listed: Q) -> list[dict[str, Any]]:
    rows = []
    seats = (
        Seat.objects.filter(listed, user=player, game__status=Game.Status.ACTIVE)
        .select_related("game")
        .order_by("-game__updated_at")[:20]
    )
    for seat in seats:
        state = engine.from_dict(seat.game.state or {})
        rows.append(
            {"game": seat.game, "turn_name": state.names[state.turn], "turn_no": state.turn_no}
        )
    return rows


def relation_context(viewer: Any, player: Any) -> dict[str, Any]:
    """What the profile's follow, bell, mute and block buttons show ``viewer``
    about ``player``, in one query. Whether ``player`` blocked ``viewer`` is
    never read here: the blocked person must not be able to tell."""
    if not getattr(viewer, "is_authenticated", False) or viewer.pk == player.pk:
        return {"relation": None}
    follow = Follow.objects.filter(follower_id=viewer.pk, followed_id=player.pk)
    row = (
        type(player)
        .objects.filter(pk=player.pk)
        .annotate(
            following=Exists(follow),
            bell=Exists(follow.filter(bell=True)),
            follows_you=Exists(Follow.objects.filter(follower_id=player.pk, followed_id=viewer.pk)),
            muted=Exists(Mute.objects.filter(muter_id=viewer.pk, muted_id=player.pk)),
            blocked=Exists(Block.objects.filter(blocker_id=viewer.pk, blocked_id=player.pk)),
        )
        .values("following", "bell", "follows_you", "muted", "blocked")
        .first()
        or {}
    )
    # "Follows you" is shown only to a follower: it makes the friend mark.
    row["friend"] = bool(row.get("following") and row.get("follows_you"))
    return {"relation": row, "player": player, "challenge_games": _hosted_lobby_games(viewer)}


def _hosted_lobby_games(viewer: Any) -> list[Game]:
    """The lobby games ``viewer`` hosts with a seat still free: where the
    profile's Challenge button can invite someone."""
    return list(
        Game.objects.filter(host_id=viewer.pk, status=Game.Status.LOBBY)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("max_seats"))
        .order_by("-created_at")[:10]
    )


def follow_counts(player: Any) -> dict[str, int]:
    """The account's own follower and following counts (shown to it only)."""
    rows = Follow.objects.filter(Q(followed_id=player.pk) | Q(follower_id=player.pk))
    return rows.aggregate(
        followers=Count("pk", filter=Q(followed_id=player.pk)),
        following=Count("pk", filter=Q(follower_id=player.pk)),
    )


def _events_listed(viewer: Any) -> Q:
    """The events a profile may name to ``viewer``: not a club's members-only
    ones, unless the viewer is a member (to anyone else they do not exist)."""
    listed = Q(tournament__members_only=False) | Q(tournament__club__isnull=True)
    if getattr(viewer, "is_staff", False):
        return Q()
    if getattr(viewer, "is_authenticated", False):
        listed |= Q(
            tournament__club__memberships__user=viewer,
            tournament__club__memberships__status="member",
        )
    return listed


def tournament_results(player: Any, viewer: Any = None) -> dict[str, Any]:
    """Events played and the best finishes, from the player's entries
    (``user.tournament_entries``); the events' links by id."""
    entries = player.tournament_entries.filter(_events_listed(viewer)).distinct()
    played = entries.exclude(tournament__status="cancelled")
    finished = played.filter(tournament__status="finished", final_rank__isnull=False)
    return {
        "played": played.count(),
        "won": finished.filter(final_rank=1).count(),
        "best": [
            {
                "id": e.tournament_id,
                "name": e.tournament.name,
                "rank": e.final_rank,
                "players": e.players,
                "finished_at": e.tournament.finished_at,
            }
            for e in finished.select_related("tournament")
            .annotate(players=Count("tournament__entries", distinct=True))
            .order_by("final_rank", "-tournament__finished_at")[:5]
        ],
        "current": [
            {"id": e.tournament_id, "name": e.tournament.name, "status": e.tournament.status}
            for e in played.filter(tournament__status__in=["registering", "running"])
            .select_related("tournament")
            .order_by("tournament__starts_at")[:10]
        ],
    }
