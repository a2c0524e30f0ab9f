"""Queue the spectators' win estimates (issue #20) after each move.

A subscriber to the write path, like the pushes: on each committed move of
a running game that someone spectates (a spectator's page open; the home
page's small boards do not count), the estimate of that version is queued
``ANALYSIS_DEBOUNCE_MS`` later (``live.tasks.estimate_position``; of a
person's game only the versions that start a turn, the only ones its
spectators are ever shown: ``ever_shown``), and when
it runs it does nothing if the game has moved on meanwhile: the newer move
queued its own. Private or public alike, a game nobody watches costs no
playouts; the watch list shows the latest estimate stored, if any. A
spectator who opens a game whose position has no estimate yet has one
queued at once (``ensure``). The game's end pushes the final bar.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache

from common import redis_health
from games import estimates
from games.models import Game, PositionEstimate
from games.services.subscribers import Subscriber
from games.services.write import Committed
from live import presence, tasks, winbar

logger = logging.getLogger(__name__)
UNREAD = object()

# A version asked for on a spectator's arrival is not queued again for this
# long (many spectators arriving together queue one task).
ASKED_SECONDS = 30


def on_commit(record: Committed) -> None:
    game = record.game
    if redis_health.is_down():
        return
    if record.finished:
        winbar.push(game.pk)  # the final bar: the winner has won
        return
    if game.status != Game.Status.ACTIVE or estimates.playouts() < 1:
        return
    # Who listens, as the pushes read it for this commit (else read now).
    here = record.scratch.get("here", UNREAD)
    if here is UNREAD:
        here = presence.listening(game.pk)
    if here is None or here.watching == 0:
        return  # nobody to show it to (or Redis cannot say)
    if not ever_shown(record):
        return
    schedule(game.pk, record.version, countdown=settings.ANALYSIS_DEBOUNCE_MS / 1000)


def ever_shown(record: Committed) -> bool:
    """Whether spectators could ever be shown the estimate of this version.
    While a person is seated they see the newest estimate no newer than the
    start of the turn a full round back (``estimates.visible_version``), so
    of a person's game only a version that starts a turn is worth its
    playouts: the others' estimates would be passed over (a turn is several
    moves, so this spares most of them). A game of site bots alone shows
    every move's."""
    if not estimates.has_person(record.game, record.seats):
        return True
    return any(e.kind == "turn_start" and e.audience_seat is None for e in record.events)


SUBSCRIBER = Subscriber("win estimates", on_commit=on_commit)


def schedule(game_pk: int, version: int, *, countdown: float) -> None:
    try:
        with redis_health.guarded():
            tasks.estimate_position.apply_async((game_pk, version), countdown=countdown)
    except Exception:
        logger.exception("Could not queue the win estimate of game %s v%s", game_pk, version)


def ensure(game_pk: int) -> None:
    """A spectator arrived: queue the estimate of the current position if
    it has none (their bar fills in a moment later)."""
    if estimates.playouts() < 1:
        return
    game = Game.objects.filter(pk=game_pk).only("pk", "status", "version").first()
    if game is None or game.status != Game.Status.ACTIVE:
        return
    if PositionEstimate.objects.filter(game_id=game.pk, version=game.version).exists():
        return
    if cache.add(f"estimates:asked:{game.pk}:{game.version}", 1, timeout=ASKED_SECONDS):
        schedule(game.pk, game.version, countdown=0)
