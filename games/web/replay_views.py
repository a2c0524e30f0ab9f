"""Replay viewer and game record export."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from common.charts import line_chart, tick_every
from common.numbers import whole_number
from games import access, disclosure, engine
from games.models import Game
from games.web.board_svg import render_board
from games.web.presenters import event_text
from games.web.replay import Replay, heat_map_svg, landing_counts, load_replay, seat_colour
from games.web.win_chart import chances_at, win_analysis
from games.wording import money

logger = logging.getLogger(__name__)


def _started_game(request: HttpRequest, public_id: str) -> Game:
    return access.access_game_for_viewer(request, public_id, started=True).game


def _int_param(request: HttpRequest, name: str) -> int | None:
    return whole_number(request.GET.get(name), signed=True)


def _worth_chart(names: list[str], worths: list[list[int]]) -> str:
    series = [(name, seat_colour(p), [row[p] for row in worths]) for p, name in enumerate(names)]
    every = tick_every(len(worths))
    ticks = [(i, str(i + 1)) for i in range(len(worths)) if i == 0 or (i + 1) % every == 0]
    return line_chart(series, title="Net worth by turn", x_label="Turn", x_ticks=ticks)


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


def _log_groups(game: Game, step: int, before: int, state: engine.State) -> list[dict[str, Any]]:
    """What the ``step``-th action did (the events of version ``step + 1``
    everyone saw), grouped by turn, numbered as the header numbers them:
    lines before a ``turn_start`` belong to the turn the action was in."""
    rows = (
        game.events.filter(seq=step + 1, audience_seat__isnull=True)
        .exclude(kind__in=["action", "start"])
        .order_by("index")
        .values_list("kind", "payload")
    )
    groups: list[dict[str, Any]] = []
    turn = before
    for kind, payload in rows:
        if kind == "turn_start":
            with contextlib.suppress(TypeError, ValueError):
                turn = int(payload.get("turn_no", turn))
        if not groups or groups[-1]["turn"] != turn + 1:
            groups.append({"turn": turn + 1, "lines": []})
        groups[-1]["lines"].append(event_text(kind, payload, state.rules, state.names))
    return groups


def _step_context(game: Game, rep: Replay, step: int) -> dict[str, Any]:
    """The replay region at ``step``: controls, board, what the move did, players."""
    before, state = rep.position(step)
    path = reverse("game_replay", args=[game.public_id])
    chances = chances_at(game, step)
    # mark_safe: render_board escapes every text it draws.
    return {
        "game": game,
        "path": path,
        "step": step,
        "steps": rep.steps,
        "previous": max(0, step - 1),
        "next": min(rep.steps, step + 1),
        "turn": state.turn_no + 1,
        "turns": max(rep.turn_firsts) + 1,
        "board": mark_safe(render_board(state, interactive=True)),
        "square_url": f"{game.get_absolute_url()}square/",
        "players": [
            {
                "name": name,
                "colour": seat_colour(p),
                "cash": money(state.rules, state.cash[p]),
                "alive": state.alive[p],
                "in_jail": state.in_jail[p],
                "chance": chances[1][p] if chances else None,
            }
            for p, name in enumerate(state.names)
        ],
        "chances_step": chances[0] if chances else None,
        "currency": state.rules.currency,
        "log_groups": _log_groups(game, step, before, state),
    }


@require_GET
def replay(request: HttpRequest, public_id: str) -> HttpResponse:
    """The replay at ``?step=N`` (moves played, 0 is the start) or at the
    first move of ``?turn=N`` (turns numbered from 1, as everywhere). An
    htmx request gets the replay region alone (the viewer's steps swap it,
    static/js/replay.js); any other, the page with the charts. ``?part=analysis``
    is the win-probability panel alone (the page asks again while it waits)."""
    game = _started_game(request, public_id)
    rep = load_replay(game)
    path = reverse("game_replay", args=[game.public_id])
    if request.GET.get("part") == "analysis":
        context = {"game": game, "path": path, "analysis": win_analysis(game, rep.names, path)}
        response = render(request, "games/replay.html#win_analysis", context)
        patch_vary_headers(response, ("HX-Request",))
        return response
    step = _int_param(request, "step")
    turn = _int_param(request, "turn")
    if turn is not None:
        step = rep.step_of_turn(turn)
    step = rep.steps if step is None else max(0, min(step, rep.steps))
    context = _step_context(game, rep, step)
    htmx = request.htmx  # type: ignore[attr-defined]
    if htmx and not htmx.history_restore_request:
        response = render(request, "games/replay.html#replay_region", context)
    else:
        _, worths = rep.turn_starts()
        # mark_safe: line_chart and heat_map_svg escape every text they draw.
        context["worth_chart"] = mark_safe(_worth_chart(rep.names, worths))
        context["heat_map"] = mark_safe(heat_map_svg(landing_counts(game), uk=rep.rules.uk))
        context["analysis"] = win_analysis(game, rep.names, path)
        response = render(request, "games/replay.html", context)
    # The region and the page share a URL: a cache must tell them apart.
    patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    return response


@require_GET
def record_json(request: HttpRequest, public_id: str) -> HttpResponse:
    viewer = access.access_game_for_viewer(request, public_id, started=True)
    game = viewer.game
    seat = viewer.seat.number if viewer.seat is not None else None
    record = load_replay(game).record(disclosure.Audience.of(game, seat))
    response = JsonResponse(record, json_dumps_params={"indent": 1})
    # Each viewer's own: a pending offer's terms are its two parties' only.
    response["Cache-Control"] = "private, no-store"
    patch_vary_headers(response, ("Cookie",))
    response["Content-Disposition"] = f'attachment; filename="monopoly-{game.public_id}.json"'
    return response
