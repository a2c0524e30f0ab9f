"""Live win probabilities (issue #20): a running game's estimates, made off
the request path, and which of them a viewer may see.

An estimate is stored once per game version (``PositionEstimate``), by the
task the live pushes queue after a move (``live.estimating``). It plays the
position out with the site's bots (``engine.estimate_win_probabilities``)
from the game's state with everything hidden thrown away there: the dice
come from a seed of its own, made of the game's public id and the version
(never its secret or seed), and the undrawn cards are reshuffled per playout.

Who sees them (docs/analysis.md, "On the site"): spectators only while the
game runs, never a seat's holder. A game with a person seated is never shown
current: only a full round late (``ANALYSIS_DELAY_ROUNDS`` rounds, one turn
per player still in the game each), and ``Game.analysis_delay_moves`` moves
late at least, logged in or not, on every page, push and list; a game of
site bots only is shown as its host's delay allows. Once the game is over,
everyone sees the final position's, which is exact (the winner has won).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Final

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Case, OuterRef, Subquery, Value, When

from games import engine
from games.models import Game, GameEvent, PositionEstimate, Seat

# The debounce's longest wait: moves faster than the debounce would drop
# every estimate (each finds the game moved on), so a task that finds it
# moved on still estimates the current position when no estimate of this
# game was made or begun this long ago.
MAX_WAIT_SECONDS: Final = 5.0
# An estimate under way holds its version this long at most (a killed
# worker's hold runs out; a normal one takes about a second or two).
BUSY_SECONDS: Final = 60
MAX_DELAY_MOVES: Final = 50


def delay_rounds() -> int:
    """Full rounds a game with a person seated is shown late (``ANALYSIS_DELAY_ROUNDS``, at least 1)."""
    return max(1, int(settings.ANALYSIS_DELAY_ROUNDS))


def playouts() -> int:
    """Playouts per live estimate (``ANALYSIS_PLAYOUTS``; 0: none are made)."""
    return int(settings.ANALYSIS_PLAYOUTS)


def estimator_seed(public_id: str, version: int) -> int:
    """The estimator's own seed for one version: public, and nothing to do
    with the game's secret, so it tells nobody anything about the dice."""
    digest = hashlib.sha256(f"win-estimate:{public_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << 63) - 1)


def cards_drawn(game_pk: int, version: int) -> tuple[int, int]:
    """Cards drawn from each deck up to ``version`` (each draw is a public
    event): the cards under them are in a known order, the rest are not."""
    payloads = GameEvent.objects.filter(game_id=game_pk, kind="card", seq__lte=version)
    return engine.count_draws(payloads.values_list("payload", flat=True))


def estimate_game(game: Game, count: int) -> engine.WinEstimate:
    """The estimate of ``game``'s current position (its row as read)."""
    state = engine.from_dict(game.state or {})
    return engine.estimate_win_probabilities(
        state,
        count,
        estimator_seed(game.public_id, game.version),
        cards_drawn=cards_drawn(game.pk, game.version),
    )


def _busy_key(game_pk: int, version: int) -> str:
    return f"estimates:busy:{game_pk}:{version}"


def _begun_key(game_pk: int) -> str:
    return f"estimates:begun:{game_pk}"


def _starved(game: Game) -> bool:
    """Whether no estimate of ``game`` was made or begun ``MAX_WAIT_SECONDS`` ago."""
    newest = (
        PositionEstimate.objects.filter(game_id=game.pk)
        .order_by("-version")
        .values_list("created_at", flat=True)
        .first()
    )
    latest = newest.timestamp() if newest is not None else 0.0
    begun = cache.get(_begun_key(game.pk))
    if isinstance(begun, (int, float)):
        latest = max(latest, float(begun))
    return time.time() - latest >= MAX_WAIT_SECONDS


def estimate_position(
    game_pk: int, version: int, *, count: int | None = None
) -> PositionEstimate | None:
    """Estimate and store ``version`` of a running game; the new row, or None
    when there was nothing to do: the game is not running, the estimate is
    stored already (a task fired twice) or under way, or the game has moved
    past ``version`` (the newer move's task does the newer version; unless
    the moves come so fast that no estimate was made for a while, and then
    this one estimates the current version)."""
    count = playouts() if count is None else count
    if count < 1:
        return None
    game = (
        Game.objects.filter(pk=game_pk)
        .only("pk", "public_id", "status", "state", "version")
        .first()
    )
    if game is None or game.status != Game.Status.ACTIVE or not game.state:
        return None
    if game.version != version and (game.version < version or not _starved(game)):
        return None
    version = game.version
    if PositionEstimate.objects.filter(game_id=game.pk, version=version).exists():
        return None
    if not cache.add(_busy_key(game.pk, version), 1, timeout=BUSY_SECONDS):
        return None
    cache.set(_begun_key(game.pk), time.time(), timeout=BUSY_SECONDS)
    try:
        found = estimate_game(game, count)
        try:
            with transaction.atomic():
                return PositionEstimate.objects.create(
                    game_id=game.pk,
                    version=version,
                    playouts=found.playouts,
                    probabilities=list(found.probabilities),
                    stderr=list(found.stderr),
                )
        except IntegrityError:
            return None  # another run stored it first: the same numbers
    finally:
        cache.delete(_busy_key(game.pk, version))


# --- what a viewer may see ---------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """An estimate as a viewer may see it: for ``version`` of the game,
    per seat number; ``final`` when the game is over (exact: 1 to the winner)."""

    version: int
    playouts: int
    probabilities: tuple[float, ...]
    stderr: tuple[float, ...]
    final: bool = False


def withheld_from(game: Game, user: Any) -> bool:
    """Whether ``user`` may not see ``game``'s estimates now: a running
    game's seat holders never do (they would be engine help), whatever page
    or socket they open it from."""
    if game.status != Game.Status.ACTIVE:
        return False
    if not getattr(user, "is_authenticated", False):
        return False
    return game.seats.filter(user_id=user.pk).exists()


def has_person(game: Game, seats: list[Seat] | None = None) -> bool:
    """Whether a seat of ``game`` is held by an account (a person, or a
    program through the API: either could be handed the estimate), not a
    site bot. ``seats``: the game's, if read already."""
    if seats is not None:
        return any(seat.user_id is not None for seat in seats)
    return game.seats.filter(user__isnull=False).exists()


def round_start(game: Game, rounds: int | None = None) -> int | None:
    """The version at which the turn a full round back began: ``rounds``
    (``delay_rounds()``) times one turn per player still in the game before
    the current one. Since that position every one of them has played a
    whole turn. None when the game is not that old."""
    rounds = delay_rounds() if rounds is None else rounds
    alive = sum(1 for p in (game.state or {}).get("alive", []) if p)
    back = max(1, alive) * rounds
    # One turn_start per turn, the newest first: the current turn's is 0.
    starts = (
        GameEvent.objects.filter(game_id=game.pk, kind="turn_start", audience_seat__isnull=True)
        .order_by("-seq", "-index")
        .values_list("seq", flat=True)
    )
    start: int | None = next(iter(starts[back : back + 1]), None)
    return start


def visible_version(game: Game, seats: list[Seat] | None = None) -> int | None:
    """The newest version whose estimate may be shown (None: none yet):
    ``Game.analysis_delay_moves`` behind, and for a game with a person
    seated no newer than the start of the turn a full round back."""
    newest = game.version - game.analysis_delay_moves
    if not has_person(game, seats):
        return newest
    start = round_start(game)
    return None if start is None else min(newest, start)


def shown(game: Game, seats: list[Seat] | None = None) -> Shown | None:
    """What spectators see of ``game``: while it runs, the latest stored
    estimate not newer than ``visible_version``; once it is finished, its
    final position's (None: nothing to show). ``seats``: the game's, if
    read already."""
    if game.status == Game.Status.FINISHED and game.state:
        state = engine.from_dict(game.state)
        if state.winner < 0:
            return None
        won = tuple(1.0 if p == state.winner else 0.0 for p in range(state.n))
        return Shown(game.version, 0, won, (0.0,) * state.n, final=True)
    if game.status != Game.Status.ACTIVE:
        return None
    limit = visible_version(game, seats)
    if limit is None:
        return None
    row = (
        PositionEstimate.objects.filter(game_id=game.pk, version__lte=limit)
        .order_by("-version")
        .first()
    )
    return _shown_row(row) if row is not None else None


def withheld(game: Game, shown_now: Shown | None) -> bool:
    """Whether a running game that shows ``shown_now`` (``shown``'s answer)
    holds back estimates it has: stored, but none old enough to show yet."""
    return (
        shown_now is None
        and game.status == Game.Status.ACTIVE
        and PositionEstimate.objects.filter(game_id=game.pk).exists()
    )


def shown_many(games: list[Game]) -> dict[int, Shown | None]:
    """``shown`` of several running games (the watch list; their seats
    prefetched), by game: None for a game with estimates but none it may
    show yet, and no entry for a game without any. Two queries, plus one
    per estimated game with a person seated (its round's start)."""
    running = {g.pk: g for g in games if g.status == Game.Status.ACTIVE}
    estimated = set(
        PositionEstimate.objects.filter(game_id__in=list(running))
        .values_list("game_id", flat=True)
        .distinct()
    )
    limits = {pk: visible_version(running[pk], list(running[pk].seats.all())) for pk in estimated}
    found: dict[int, Shown | None] = dict.fromkeys(estimated)
    allowed = {pk: limit for pk, limit in limits.items() if limit is not None}
    if not allowed:
        return found
    limit = Case(*[When(game_id=pk, then=Value(v)) for pk, v in allowed.items()], default=Value(-1))
    latest = (
        PositionEstimate.objects.filter(game_id=OuterRef("pk"), version__lte=limit)
        .order_by("-version")
        .values("pk")[:1]
    )
    pks = (
        Game.objects.filter(pk__in=list(allowed))
        .annotate(estimate=Subquery(latest))
        .values_list("estimate", flat=True)
    )
    rows = PositionEstimate.objects.filter(pk__in=[pk for pk in pks if pk is not None])
    found.update({row.game_id: _shown_row(row) for row in rows})
    return found


def _shown_row(row: PositionEstimate) -> Shown:
    return Shown(
        row.version,
        row.playouts,
        tuple(float(p) for p in row.probabilities),
        tuple(float(s) for s in row.stderr),
    )
