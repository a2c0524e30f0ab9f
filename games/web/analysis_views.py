"""``/games/<id>/analysis.json``: the win probabilities a viewer may read
(issue #20), under the rules of the spectators' bar (``games.estimates``):
a running game's seat holders get 403, everyone else the latest estimate
a full round old (``ANALYSIS_DELAY_ROUNDS``; a game of site bots only, its
host's ``analysis_delay_moves`` alone), and once the game is over everyone
gets its final position's."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from games import access, estimates
from games.web.presenters import game_seats

WITHHELD = (
    "You hold a seat in this game, so its win probabilities are not shown to you "
    "while it runs: they would be engine help. Everyone may read them once it is over."
)
NONE_YET = (
    "There is no estimate of this game yet: one is made after each move while someone spectates it."
)


@require_GET
def analysis_json(request: HttpRequest, public_id: str) -> JsonResponse:
    game = access.access_game_for_viewer(request, public_id, started=True).game
    if estimates.withheld_from(game, request.user):
        return _error(WITHHELD, 403)
    seat_rows = game_seats(game)
    shown = estimates.shown(game, seat_rows)
    body: dict[str, Any] = {
        # No estimate to show yet (one is made after each move while someone
        # spectates the game, and shown a round later): a null version and
        # empty maps; ``withheld`` when there is one, not old enough yet.
        "version": None,
        "playouts": 0,
        "final": False,
        "delay_moves": game.analysis_delay_moves,
        "delay_rounds": estimates.delay_rounds() if estimates.has_person(game, seat_rows) else 0,
        "withheld": estimates.withheld(game, shown),
        "win_probability": {},
        "stderr": {},
    }
    if shown is not None:
        names = {seat.number: seat.name for seat in seat_rows}
        seats = [n for n in sorted(names) if n < len(shown.probabilities)]
        body.update(
            version=shown.version,
            playouts=shown.playouts,
            final=shown.final,
            win_probability={names[n]: round(shown.probabilities[n], 4) for n in seats},
            stderr={names[n]: round(shown.stderr[n], 4) for n in seats},
        )
    response = JsonResponse(body)
    response["Cache-Control"] = "private, no-store"
    return response


def _error(message: str, status: int) -> JsonResponse:
    response = JsonResponse({"error": message}, status=status)
    response["Cache-Control"] = "private, no-store"
    return response
