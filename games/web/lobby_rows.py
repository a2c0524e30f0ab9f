"""The lobby's lists: open games, and a person's own games. The lobby page
renders them, and ``live.broadcast`` pushes them as they change."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import Count

from games import engine
from games.models import Game, Seat
from games.switches import PRESET_LABELS
from games.web.forms import timer_label
from games.web.timer_presenters import next_deadline


def your_game_rows(user: Any) -> list[dict[str, Any]]:
    seats = (
        Seat.objects.filter(user=user, game__status__in=[Game.Status.LOBBY, Game.Status.ACTIVE])
        .select_related("game")
        .order_by("-game__updated_at")[:50]
    )
    rows = []
    for seat in seats:
        game = seat.game
        row: dict[str, Any] = {"game": game, "seat": seat, "waiting_on": "", "your_move": False}
        if game.status == Game.Status.ACTIVE and game.state:
            state = engine.from_dict(game.state)
            pending = engine.pending_decisions(state)
            row["your_move"] = any(p.player == seat.number and p.blocking for p in pending)
            waiting = sorted({state.names[p.player] for p in pending if p.blocking})
            row["waiting_on"] = ", ".join(waiting)
            row["deadline"] = next_deadline(game, seat.number)
        rows.append(row)
    # Waiting on you first, then the soonest deadline: what needs you next.
    far = datetime.max.replace(tzinfo=UTC)
    rows.sort(key=lambda r: (not r["your_move"], r.get("deadline") or far))
    return rows


FINISHED_SHOWN = 5


def your_games_context(user: Any) -> dict[str, Any]:
    """The lobby's "Your games": the games in play, and when there are
    none, the last few finished ones (so that a player whose game just
    ended is not told they were never in one)."""
    rows = your_game_rows(user)
    finished: list[Game] = []
    if not rows:
        finished = list(
            Game.objects.filter(seats__user=user, status=Game.Status.FINISHED)
            .order_by("-finished_at", "-pk")
            .distinct()[:FINISHED_SHOWN]
        )
    return {"your_games": rows, "finished_games": finished, "lobby_user": user}


def open_game_rows() -> list[dict[str, Any]]:
    """The lobby's open-games table ."""
    open_games = (
        Game.objects.filter(status=Game.Status.LOBBY, is_public=True)
        .select_related("host")
        .annotate(taken=Count("seats"))
        .order_by("-created_at")[:50]
    )
    return [
        {
            "game": g,
            "preset_label": PRESET_LABELS.get(g.preset, g.preset),
            "timer": timer_label(g.turn_seconds),
        }
        for g in open_games
    ]
