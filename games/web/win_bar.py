"""The spectators' win-probability bar (issue #20): each player's chance of
winning as a segment in their colour, with their name and percentage.

Only spectators get it (``regions.SPECTATOR``): whether a viewer may see it
is ``games.estimates.withheld_from``; what they see, ``estimates.shown``.
"""

from __future__ import annotations

from typing import Any

from games import estimates
from games.models import Game, Seat
from games.web.presenters import seat_colours, seat_text_colour


def percent(p: float) -> str:
    """A chance as the bar words it: whole points, "<1" and ">99" near the ends."""
    if 0 < p < 0.005:
        return "<1"
    if 0.995 <= p < 1:
        return ">99"
    return str(round(p * 100))


def bar(game: Game, seats: list[Seat], shown: estimates.Shown | None) -> dict[str, Any]:
    """The bar's context: ``rows`` per seat (empty while there is no
    estimate to show), the version it is for, how it was made and how late
    it is shown (``rounds``: full rounds, for a game with a person seated)."""
    colours = seat_colours()
    rows = []
    if shown is not None:
        for seat in seats:
            if seat.number >= len(shown.probabilities):
                continue
            p = shown.probabilities[seat.number]
            se = shown.stderr[seat.number] if seat.number < len(shown.stderr) else 0.0
            colour = colours[seat.number % len(colours)]
            rows.append(
                {
                    "name": seat.name,
                    "colour": colour,
                    "text_colour": seat_text_colour(seat.number),
                    "percent": percent(p),
                    # The segment's width: a locale-free number for the style.
                    "width": f"{p * 100:.2f}",
                    "margin": round(se * 196),  # 95% interval, in points
                    "out": p == 0,
                    # Too narrow a segment for its number: the legend has it.
                    "numbered": p >= 0.09,
                }
            )
    label = ", ".join(f"{r['name']} {r['percent']}%" for r in rows)
    return {
        "rows": rows,
        "version": shown.version if shown is not None else -1,
        "playouts": shown.playouts if shown is not None else 0,
        "final": shown is not None and shown.final,
        "label": f"Chances of winning: {label}" if rows else "",
        "delay": game.analysis_delay_moves,
        "rounds": estimates.delay_rounds() if estimates.has_person(game, seats) else 0,
        "moves_behind": game.version - shown.version if shown is not None else 0,
    }


def spectator_context(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """The context of the SPECTATOR regions (one query). Without live
    estimates (``ANALYSIS_PLAYOUTS=0``) a running game has no bar at all."""
    shown = estimates.shown(game, seats)
    if shown is None and estimates.playouts() < 1:
        return {"win_bar": None}
    return {"win_bar": bar(game, seats, shown)}
