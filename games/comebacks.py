"""A player's best comebacks: games they won after their estimated chance of
winning fell below a tenth (from the stored analyses, ``games.analysis``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse

from games.models import Game, Seat

COMEBACK_BELOW = 0.10
# Only the player's most recent analysed wins are looked through: each
# analysis holds some hundred points, and a profile must stay quick.
SCANNED_WINS = 200


def best_comebacks(seats: QuerySet[Seat], limit: int = 5) -> list[dict[str, Any]]:
    """The won games among ``seats`` (one player's, those the viewer may
    see) whose lowest estimated chance was below ``COMEBACK_BELOW``, lowest
    first: {game, low, step, turn, href, finished_at}."""
    rows = (
        seats.filter(final_rank=1, game__status=Game.Status.FINISHED, game__analysis__isnull=False)
        .order_by("-game__finished_at")
        .values_list("number", "game__public_id", "game__finished_at", "game__analysis__points")
    )[:SCANNED_WINS]
    found = []
    for number, public_id, finished_at, points in rows:
        low = None
        for point in points or []:
            chances = point.get("probabilities") or []
            if number < len(chances) and (low is None or chances[number] < low[0]):
                low = (chances[number], point["step"], point["turn"])
        if low is None or low[0] >= COMEBACK_BELOW:
            continue
        chance, step, turn = low
        replay = reverse("game_replay", args=[public_id])
        found.append(
            {
                "game": public_id,
                "low": chance,
                "percent": f"{100 * chance:.0f}%" if chance >= 0.01 else f"{100 * chance:.1f}%",
                "step": step,
                "turn": turn,
                "href": f"{replay}?step={step}",
                "game_href": reverse("game_detail", args=[public_id]),
                "finished_at": finished_at,
            }
        )
    found.sort(key=lambda c: (c["low"], -c["finished_at"].timestamp()))
    return found[:limit]
