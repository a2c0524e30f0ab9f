"""The spectators' win bar (issue #20), pushed once its estimate is stored.

It goes to ``groups.win_bar_group`` alone: the sockets of viewers who hold
no seat in the game and are not the home page's glances (which show no
bar). Framed ``<!--push N-->`` with N the version of the estimate
it shows, under a part of its own ("win-bar"): clients drop a bar for an
older estimate than the one they show, as they drop any stale region, and
leave the bar out of the version their heartbeat asks about (it trails the
game: a full round while a person is seated, ``games.estimates``).
"""

from __future__ import annotations

from typing import Any, Final

from games.models import Game
from games.web import presenters, win_bar
from games.web.regions import NO_CSRF, SPECTATOR_REGIONS, render
from live import groups

PART: Final = "win-bar"


def message(game: Game) -> tuple[str, dict[str, Any]] | None:
    """The push of what spectators now see of ``game``'s chances (None:
    nothing to show)."""
    context: dict[str, Any] = {
        "game": game,
        **win_bar.spectator_context(game, presenters.game_seats(game)),
        **NO_CSRF,
    }
    bar = context["win_bar"]
    if not bar or not bar["rows"]:
        return None
    version = bar["version"]
    html = f"<!--push {version}-->" + render(SPECTATOR_REGIONS, context)
    return groups.win_bar_group(game.pk), {
        "type": "game.push",
        "part": PART,
        "version": version,
        "html": html,
    }


def push(game_pk: int) -> bool:
    """Push the bar spectators may now see; False if there is none."""
    game = Game.objects.filter(pk=game_pk).first()
    if game is None or game.state is None:
        return False
    found = message(game)
    if found is None:
        return False
    groups.send([found])
    return True
