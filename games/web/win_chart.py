"""The replay's win-probability chart and turning points, from a finished
game's stored analysis (``games.analysis`` makes it in the background)."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import mark_safe

from common.charts import Marker, line_chart, tick_every
from games.models import Game, GameAnalysis
from games.web.replay import seat_colour

TITLE = "Chance of winning by move"


def win_analysis(game: Game, names: list[str], path: str) -> dict[str, Any]:
    """What the replay shows of the analysis: ``state`` is "ready", "pending"
    (a finished game not analysed yet), "failed" (stored moves that did not
    replay) or "none" (a game still running or abandoned: nothing to show)."""
    if game.status != Game.Status.FINISHED:
        return {"state": "none"}
    found = GameAnalysis.objects.filter(game=game).first()
    if found is None:
        return {"state": "pending"}
    if not found.points:
        return {"state": "failed"}
    points: list[dict[str, Any]] = found.points
    turning = [
        {**tp, "href": f"{path}?step={tp['step']}", "colour": seat_colour(tp["seat"])}
        for tp in found.turning_points
    ]
    return {
        "state": "ready",
        "names": names,
        # mark_safe: line_chart escapes every text it draws.
        "chart": mark_safe(chart(points, names, turning)),
        "turning_points": turning,
        "playouts": found.playouts,
        "positions": len(points),
        "table": [
            {
                "step": point["step"],
                "turn": point["turn"],
                "href": f"{path}?step={point['step']}",
                "chances": [round(100 * p) for p in point["probabilities"]],
            }
            for point in points
        ],
    }


def chart(points: list[dict[str, Any]], names: list[str], turning: list[dict[str, Any]]) -> str:
    series = [
        (name, seat_colour(p), [100 * point["probabilities"][p] for point in points])
        for p, name in enumerate(names)
    ]
    markers = [
        Marker(tp["step"], 100 * tp["after"], tp["colour"], tp["href"], tp["text"])
        for tp in turning
    ]
    last = points[-1]
    final = ", ".join(
        f"{name} {round(100 * p)}%" for name, p in zip(names, last["probabilities"], strict=False)
    )
    return line_chart(
        series,
        title=TITLE,
        x_label="Turn",
        x_ticks=turn_ticks(points),
        y_format="{:.0f}%",
        xs=[point["step"] for point in points],
        y_range=(0, 100),
        y_step=25,
        markers=markers,
        desc=f"Each player's estimated chance of winning over {last['step']} moves, "
        f"ending {final}. The rings mark the turning points listed beside the chart.",
    )


def turn_ticks(points: list[dict[str, Any]], count: int = 6) -> list[tuple[float, str]]:
    """About ``count`` turns marked under the axis, at the first analysed
    move of each (the chart runs by move, the net worth beside it by turn)."""
    firsts: dict[int, int] = {}
    for point in points:
        firsts.setdefault(point["turn"], point["step"])
    every = tick_every(max(firsts), count)
    return [(step, str(turn)) for turn, step in firsts.items() if turn == 1 or turn % every == 0]


def chances_at(game: Game, step: int) -> tuple[int, list[int]] | None:
    """Each player's estimated chance (in percent) at the last analysed move
    up to ``step``, and that move; None before the game is analysed."""
    if game.status != Game.Status.FINISHED:
        return None
    points = GameAnalysis.objects.filter(game=game).values_list("points", flat=True).first()
    at = [p for p in points or [] if p["step"] <= step]
    if not at:
        return None
    return at[-1]["step"], [round(100 * p) for p in at[-1]["probabilities"]]
