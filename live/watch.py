"""The /watch/ list: live public games with their players, ratings and turn."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from games import engine
from games.models import Game, Seat
from games.switches import PRESET_LABELS
from live.presence import watching_counts
from ratings.models import PlayerRating
from ratings.services import pool_for

SORTS = {"recent": "Recent activity", "spectators": "Most watched"}
LIMIT = 50


def watch_rows(sort: str = "recent") -> list[dict[str, Any]]:
    games = list(
        Game.objects.filter(status=Game.Status.ACTIVE, is_public=True)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-updated_at")[: LIMIT * 2]
    )
    user_ids = {seat.user_id for game in games for seat in game.seats.all() if seat.user_id}
    ratings = {(r.user_id, r.pool): r for r in PlayerRating.objects.filter(user_id__in=user_ids)}
    watchers = watching_counts([game.pk for game in games])
    if sort == "spectators":
        # Stable sort: games equally watched keep their recent-activity order.
        games.sort(key=lambda game: -watchers.get(game.pk, 0))
    rows = []
    for game in games:
        state = engine.from_dict(game.state or {})
        pool = pool_for(game.preset, game.switches)
        players = []
        for seat in game.seats.all():
            rating = ratings.get((seat.user_id, pool)) if seat.user_id else None
            players.append(
                {
                    "name": seat.name,
                    "is_bot": seat.is_bot,
                    "out": not state.alive[seat.number],
                    "rating": rating.shown if rating else None,
                }
            )
        rows.append(
            {
                "game": game,
                "preset_label": PRESET_LABELS.get(game.preset, game.preset),
                "players": players,
                "turn_no": state.turn_no + 1,
                "turn_name": state.names[state.turn],
                "watching": watchers.get(game.pk, 0),
            }
        )
    return rows[:LIMIT]
