"""Replay viewer and game record export."""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from common.charts import line_chart
from games import access, engine
from games.models import Game
from games.web.board_svg import render_board
from games.web.presenters import event_text
from games.web.replay import heat_map_svg, landing_counts, load_replay, seat_colour

logger = logging.getLogger(__name__)


def _started_game(request: HttpRequest, public_id: str) -> Game:
    return access.access_game_for_viewer(request, public_id, started=True).game


def _int_param(request: HttpRequest, name: str) -> int | None:
    try:
        return int(request.GET[name])
    except (KeyError, ValueError):
        return None


def _worth_chart(names: list[str], worths: list[list[int]]) -> str:
    series = [(name, seat_colour(p), [row[p] for row in worths]) for p, name in enumerate(names)]
    return line_chart(series, title="Net worth by turn", x_label="Turn")


def game_charts(game: Game) -> dict[str, str]:
    """The net worth chart and heat map shown under a finished game."""
    rep = load_replay(game)
    try:
        _, worths = rep.turn_starts()
    except engine.IllegalAction:
        # Stored actions that no longer replay are a data fault to look into,
        # not a reason to fail the page: show the page without the chart.
        logger.exception("Game %s does not replay", game.public_id)
        worths = []
    # mark_safe: line_chart and heat_map_svg escape every text they draw.
    return {
        "worth": mark_safe(_worth_chart(rep.names, worths)),
        "heat": mark_safe(heat_map_svg(landing_counts(game), uk=rep.rules.uk)),
    }


@require_GET
def replay(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _started_game(request, public_id)
    rep = load_replay(game)
    turn_steps, worths = rep.turn_starts()
    step = _int_param(request, "step")
    turn = _int_param(request, "turn")
    if turn is not None:
        step = turn_steps[max(0, min(turn, len(turn_steps) - 1))]
    step = rep.steps if step is None else max(0, min(step, rep.steps))
    state = rep.state_at(step)
    rules = state.rules
    version = step + 1
    lines = [
        event_text(kind, payload, rules, state.names)
        for kind, payload in game.events.filter(seq=version, audience_seat__isnull=True)
        .exclude(kind__in=["action", "start"])
        .order_by("index")
        .values_list("kind", "payload")
    ]
    # mark_safe below: render_board, line_chart and heat_map_svg escape every text they draw.
    context = {
        "game": game,
        "step": step,
        "steps": rep.steps,
        "turn_no": state.turn_no,
        "turns": len(turn_steps) - 1,
        "board": mark_safe(render_board(state, interactive=True)),
        "square_url": f"{game.get_absolute_url()}square/",
        "players": [
            {
                "name": name,
                "colour": seat_colour(p),
                "cash": state.cash[p],
                "alive": state.alive[p],
                "in_jail": state.in_jail[p],
            }
            for p, name in enumerate(state.names)
        ],
        "currency": rules.currency,
        "lines": lines,
        "worth_chart": mark_safe(_worth_chart(state.names, worths)),
        "heat_map": mark_safe(heat_map_svg(landing_counts(game), uk=rules.uk)),
    }
    return render(request, "games/replay.html", context)


@require_GET
def record_json(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _started_game(request, public_id)
    response = JsonResponse(load_replay(game).record(), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="monopoly-{game.public_id}.json"'
    return response
