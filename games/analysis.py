"""A finished game's analysis: each player's chance of winning over the whole
game, and the moves that changed it most (issue #20, "After the game").

The game is replayed from its record (``games.web.replay``), and each
analysed position is handed to ``engine.estimate_win_probabilities`` with
the estimator's own seed: a finished game's secret is public, but the
estimate of a position must be what it was then, not what the dice later
did. A long game is sampled: at most ``POSTGAME_MAX_POSITIONS`` evenly
spaced positions, then the steps inside the widest swings are analysed too
(``POSTGAME_REFINE_POSITIONS`` more at most), so that each turning point is
one move. The result is stored once (``GameAnalysis``, one per game); beat's
sweep (``games.tasks.sweep_analyses``) finds finished games without one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games import engine
from games.models import Game, GameAnalysis, GameEvent
from games.web.presenters import event_text
from games.web.replay import load_replay

logger = logging.getLogger(__name__)

TURNING_POINTS = 5
# Log lines that say nothing about what the move changed.
QUIET_KINDS = {"action", "start", "turn_start", "turn_end", "worth", "note"}
# Lines that only lead up to what mattered (the throw before the rent, the
# auction a bankruptcy opens): a move is told by its others when it has any.
MINOR_KINDS = {"dice", "move", "salary", "auction_start", "game_over"}
# A move's description keeps this many of its log lines.
DESCRIBED_LINES = 3


@dataclass(frozen=True)
class Settings:
    """How much an analysis may cost (``POSTGAME_*`` settings)."""

    playouts: int
    max_positions: int
    refine_positions: int
    target_stderr: float
    turn_cap: int

    @classmethod
    def from_django(cls) -> Settings:
        return cls(
            playouts=max(1, int(settings.POSTGAME_PLAYOUTS)),
            max_positions=max(2, int(settings.POSTGAME_MAX_POSITIONS)),
            refine_positions=max(0, int(settings.POSTGAME_REFINE_POSITIONS)),
            target_stderr=float(settings.POSTGAME_TARGET_STDERR),
            turn_cap=max(1, int(settings.POSTGAME_TURN_CAP)),
        )


@dataclass(frozen=True)
class Position:
    """The public position after ``step`` moves: the state, the turn the
    move was made in (1-based) and the cards drawn so far."""

    state: engine.State
    turn: int
    drawn: tuple[int, int]


def positions(initial: engine.State, actions: list[engine.Action]) -> list[Position]:
    """Every step's position, from one pass over the record."""
    state = initial.copy()
    log: list[Any] = []
    drawn = (0, 0)
    out = [Position(state.copy(), state.turn_no + 1, drawn)]
    for action in actions:
        turn = state.turn_no + 1
        seen = len(log)
        engine.step(state, action, log)
        new = engine.count_draws(log[seen:])
        drawn = (drawn[0] + new[0], drawn[1] + new[1])
        out.append(Position(state.copy(), turn, drawn))
    return out


def even_steps(last: int, count: int) -> list[int]:
    """At most ``count`` steps from 0 to ``last``, evenly spaced, both ends in."""
    if last + 1 <= count:
        return list(range(last + 1))
    return sorted({round(i * last / (count - 1)) for i in range(count)})


def swing(a: list[float], b: list[float]) -> tuple[float, int]:
    """The largest change of one seat's chance from ``a`` to ``b``, and the seat."""
    seat = max(range(len(a)), key=lambda p: (abs(b[p] - a[p]), -p))
    return abs(b[seat] - a[seat]), seat


def largest_swings(points: dict[int, list[float]], count: int) -> list[tuple[int, int, int]]:
    """The ``count`` largest swings between consecutive analysed steps, as
    (from step, to step, seat), largest first (earlier first on a tie)."""
    steps = sorted(points)
    pairs = [(swing(points[a], points[b]), a, b) for a, b in pairwise(steps)]
    pairs.sort(key=lambda x: (-x[0][0], x[1]))
    return [(a, b, seat) for (_, seat), a, b in pairs[:count]]


def estimate_steps(
    estimate: Callable[[int], list[float]], last: int, config: Settings
) -> dict[int, list[float]]:
    """Each analysed step's probabilities: evenly spaced steps first, then
    the steps inside the largest swings until each is one move or the
    refining budget is spent."""
    points = {s: estimate(s) for s in even_steps(last, config.max_positions)}
    budget = config.refine_positions
    while budget > 0:
        wide = [(a, b) for a, b, _ in largest_swings(points, TURNING_POINTS) if b - a > 1]
        if not wide:
            break
        for a, b in wide:
            inside = list(range(a + 1, b))
            if len(inside) > budget:
                inside = [(a + b) // 2]  # halve it instead: the next round looks again
            for s in inside[:budget]:
                points[s] = estimate(s)
                budget -= 1
            if budget <= 0:
                break
    return points


def percent(p: float) -> str:
    return f"{round(100 * p)}%"


def describe(lines: Iterable[tuple[str, str]]) -> str:
    """A move's log lines, (kind, text), as one clause: "bob buys Boardwalk
    for $400" (with the throw and the walk there only if nothing else)."""
    lines = [(kind, text) for kind, text in lines if text]
    major = [text for kind, text in lines if kind not in MINOR_KINDS]
    kept = [text.rstrip(".") for text in major or [text for _, text in lines]]
    text = ", ".join(kept[:DESCRIBED_LINES])
    return text + ("…" if len(kept) > DESCRIBED_LINES else "")


def turning_points(
    points: dict[int, list[float]],
    turns: dict[int, int],
    names: list[str],
    lines: Callable[[int, int], list[tuple[str, str]]],
) -> list[dict[str, Any]]:
    """The moves that changed someone's chances most, largest first:
    {step, turn, seat, before, after, text}. ``lines(a, b)`` gives the log
    lines, (kind, text), of the moves after step ``a`` up to step ``b``."""
    out = []
    for a, b, seat in largest_swings(points, TURNING_POINTS):
        before, after = points[a][seat], points[b][seat]
        if abs(after - before) < 0.005:
            break  # no change worth the name
        what = describe(lines(a, b)) or "a move"
        out.append(
            {
                "step": b,
                "turn": turns[b],
                "seat": seat,
                "before": round(before, 4),
                "after": round(after, 4),
                "text": f"Turn {turns[b]}: {what}: {names[seat]} "
                f"{percent(before)} → {percent(after)}",
            }
        )
    return out


def public_lines(game: Game) -> dict[int, list[tuple[str, str]]]:
    """The log lines everyone saw, by step (a step's events are those of
    version step + 1)."""
    rules = engine.ruleset(game.preset, **game.switches)
    names = list((game.state or {}).get("names", []))
    out: dict[int, list[tuple[str, str]]] = {}
    rows = (
        GameEvent.objects.filter(game=game, audience_seat__isnull=True)
        .exclude(kind__in=QUIET_KINDS)
        .order_by("seq", "index")
        .values_list("seq", "kind", "payload")
    )
    for seq, kind, payload in rows:
        out.setdefault(seq - 1, []).append((kind, event_text(kind, payload, rules, names)))
    return out


@dataclass(frozen=True)
class Result:
    playouts: int
    points: list[dict[str, Any]]
    turning_points: list[dict[str, Any]]
    positions: int  # how many positions were estimated
    seconds: float


def analyse(game: Game, config: Settings | None = None) -> Result:
    """Replay ``game`` and estimate each sampled position (nothing stored)."""
    config = config or Settings.from_django()
    started = time.monotonic()
    rep = load_replay(game)
    steps = positions(rep.initial_state(), rep.actions)
    # The estimator's own seed: the same game always gives the same analysis,
    # and nothing of the game's dice goes in.
    seed = game.pk

    def estimate(step: int) -> list[float]:
        pos = steps[step]
        est = engine.estimate_win_probabilities(
            pos.state,
            config.playouts,
            seed,
            turn_cap=config.turn_cap,
            target_stderr=config.target_stderr,
            min_playouts=min(config.playouts, max(20, config.playouts // 4)),
            cards_drawn=pos.drawn,
        )
        return list(est.probabilities)

    last = len(steps) - 1
    points = estimate_steps(estimate, last, config)
    log = public_lines(game)
    turns = {s: steps[s].turn for s in points}

    def lines(a: int, b: int) -> list[tuple[str, str]]:
        return [line for s in range(a + 1, b + 1) for line in log.get(s, [])]

    return Result(
        playouts=config.playouts,
        points=[
            {
                "step": s,
                "turn": steps[s].state.turn_no + 1,
                "probabilities": [round(p, 4) for p in points[s]],
            }
            for s in sorted(points)
        ],
        turning_points=turning_points(points, turns, rep.names, lines),
        positions=len(points),
        seconds=time.monotonic() - started,
    )


def store(game: Game, result: Result) -> bool:
    """Store ``result`` as ``game``'s analysis unless one is stored already
    (by a task that ran at the same time, say). True if this one was."""
    try:
        with transaction.atomic():
            GameAnalysis.objects.create(
                game=game,
                playouts=result.playouts,
                points=result.points,
                turning_points=result.turning_points,
            )
    except IntegrityError:
        if not GameAnalysis.objects.filter(game=game).exists():
            raise
        return False
    return True


def analyse_game(game_pk: int) -> bool:
    """Analyse and store finished game ``game_pk`` once; False when there is
    nothing to do (no such game, not finished, analysed already)."""
    game = Game.objects.filter(pk=game_pk, status=Game.Status.FINISHED).first()
    if game is None or GameAnalysis.objects.filter(game=game).exists():
        return False
    try:
        result = analyse(game)
    except engine.IllegalAction:
        # Stored moves that no longer replay: a data fault to look into. An
        # empty analysis says so to the page and stops the sweep retrying.
        logger.exception("Game %s does not replay; stored without an analysis", game.public_id)
        result = Result(0, [], [], 0, 0.0)
    stored = store(game, result)
    if stored:
        logger.info(
            "Analysed game %s: %s positions in %.1f s",
            game.public_id,
            result.positions,
            result.seconds,
        )
    return stored


def unanalysed_games(limit: int) -> list[int]:
    """Finished games without an analysis, the most recently finished first."""
    return list(
        Game.objects.filter(status=Game.Status.FINISHED, analysis__isnull=True)
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[:limit]
    )
