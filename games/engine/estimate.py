"""Who is winning: each player's chance of winning, by Monte Carlo playouts.

From a state, play the rest of the game out many times with the site's
heuristic bot in every seat and count who wins. The estimate answers "who
wins if everyone plays like the site's bots" (docs/analysis.md).

It never knows the future. Each playout starts from the public part of the
state only:

* the dice come from the estimator's own splitmix64, seeded by its ``seed``
  and the playout's number: the game's secret, seed, generator state and
  scripted dice are thrown away;
* a deck is drawn from the top and every drawn card goes back under it
  (a Get Out of Jail Free card when it is used), so the deck is always the
  cards nobody has seen yet, on top, then the cards drawn since, in the order
  they were drawn. The state does not say where the one ends; the number of
  draws does (it is public: every draw is an event), and each playout
  reshuffles the top ``16 - draws`` cards and keeps the rest in order. With
  no count given, the whole deck is reshuffled (which knows less, and
  nothing hidden);
* the hidden bids of an open sealed-bid auction are dropped and the seats
  that made them bid again, as bots (who has bid is public, how much is not).

A playout that is still running ``turn_cap`` player-turns later is valued by
net worth as the game's end values it (``valuation``: mortgaged property at
half price): the richest alive player wins it (ties share).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from .actions import BUILD, CLAIM_RENT, END_TURN, ROLL, Action
from .bots import Bot, make_bot, next_actor, out_of_turn_open
from .core import valuation
from .errors import EngineError
from .events import EventLog
from .game import RUNNERS, run_build, run_claim_rent, run_end_turn, run_roll, step
from .legal import timeout_action
from .rng import GAMMA, GEN_SPLITMIX, MASK, next_u64, seed_state, shuffle
from .state import P_OVER, State

#: Player-turns a playout may run past the position before it is valued by
#: net worth. Four bots finish a whole game in about 160 player-turns.
TURN_CAP: Final = 400
#: Playouts before an early stop is considered, and how often it is checked.
MIN_PLAYOUTS: Final = 200
CHECK_EVERY: Final = 50
#: The cards a full deck holds (every edition's two decks have 16).
DECK_SIZE: Final = 16


@dataclass(frozen=True, slots=True)
class WinEstimate:
    """Each seat's chance of winning (bankrupt seats 0; they sum to 1), the
    standard error of each, and how many playouts were played."""

    probabilities: tuple[float, ...]
    stderr: tuple[float, ...]
    playouts: int


def count_draws(events: Iterable[Any]) -> tuple[int, int]:
    """How many cards were drawn from each deck (Chance, Community Chest),
    counted from a game's events: ``Event`` tuples, or their ``to_dict``
    form (``{"kind": "card", "deck": ...}``)."""
    counts = [0, 0]
    for e in events:
        if isinstance(e, dict):
            if e.get("kind") == "card":
                counts[int(e["deck"])] += 1
        elif e[0] == "card":
            counts[int(e[2][0])] += 1
    return counts[0], counts[1]


def public_state(state: State) -> State:
    """A copy of ``state`` without what nobody may know: the generator (its
    kind, secret, seed and state), scripted dice, and sealed bids (whose
    bidders are asked again). The deck order is dealt with per playout."""
    s = state.copy()
    s.generator = GEN_SPLITMIX
    s.secret = ""
    s.seed = 0
    s.rng = 0
    s.forced_dice = []
    a = s.auction
    if a is not None and s.bids:
        for b in s.bids:
            a[5 + b[0]] = 1
        s.bids = []
    return s


def unseen_cards(state: State, drawn: tuple[int, int] | None) -> tuple[int, int]:
    """How many cards on top of each deck nobody has seen."""
    if drawn is None:
        return len(state.decks[0]), len(state.decks[1])
    return (
        min(len(state.decks[0]), max(0, DECK_SIZE - drawn[0])),
        min(len(state.decks[1]), max(0, DECK_SIZE - drawn[1])),
    )


def playout_rng(seed: int, index: int) -> int:
    """The generator state of playout ``index`` of an estimate with ``seed``."""
    _, r = next_u64(seed_state(seed) ^ ((index * GAMMA) & MASK))
    return r


def playout_start(base: State, seed: int, index: int, unseen: tuple[int, int]) -> State:
    """Playout ``index``'s own copy of the public state ``base``: its own
    dice, and the ``unseen`` top cards of each deck in an order of its own."""
    s = base.copy()
    s.rng = playout_rng(seed, index)
    for deck in (0, 1):
        u = unseen[deck]
        if u > 1:
            d = s.decks[deck]
            # Sorted first: the shuffle must start from what is known (which
            # cards), never from the hidden order they are in.
            top = sorted(d[:u])
            s.rng = shuffle(s.rng, top)
            d[:u] = top
    return s


def _act(s: State, bots: list[Bot]) -> Action:
    if out_of_turn_open(s):
        p = next_actor(s)
        return bots[p].act(s, p)
    p = s.turn
    return bots[p].act_in_turn(s, p)


def play_default(s: State, ev: EventLog) -> bool:
    """A bot's action was refused (a position a human left the bots cannot
    read): take the deadline default instead. False if that fails too."""
    try:
        step(s, timeout_action(s, next_actor(s)), ev)
    except EngineError:
        return False
    return True


def play_out(s: State, bots: list[Bot], turn_cap: int) -> bool:
    """Play ``s`` on in place with ``bots`` for at most ``turn_cap`` more
    player-turns; True if the game ended."""
    limit = s.turn_no + turn_cap
    budget = turn_cap * 200 + 1000
    ev: EventLog = []
    runners = RUNNERS
    while s.phase != P_OVER and s.turn_no < limit:
        a = _act(s, bots)
        k = a.kind
        try:
            # play_game's dispatch: direct calls of the frequent runners.
            if k == ROLL:
                run_roll(s, a, ev)
            elif k == END_TURN:
                run_end_turn(s, a, ev)
            elif k == BUILD:
                run_build(s, a, ev)
            elif k == CLAIM_RENT:
                run_claim_rent(s, a, ev)
            else:
                run = runners.get(k)
                if run is None:
                    step(s, a, ev)  # raises UnknownAction
                else:
                    run(s, a, ev)
            s.seq += 1
        except EngineError:
            if not play_default(s, ev):
                return False
        ev.clear()
        budget -= 1
        if budget <= 0:
            return False
    return s.phase == P_OVER


def _score(s: State, ended: bool, out: list[float]) -> None:
    """Add the playout's result to ``out``: 1 to the winner; at the cap, 1
    to the richest by end-of-game value (shared on a tie)."""
    if ended:
        if s.winner >= 0:
            out[s.winner] = 1.0
        return
    values = [valuation(s, p) if s.alive[p] else -1 for p in range(s.n)]
    best = max(values)
    top = [p for p in range(s.n) if s.alive[p] and values[p] == best]
    for p in top:
        out[p] = 1.0 / len(top)


def finished_estimate(state: State) -> WinEstimate:
    """The estimate of a finished game: its winner has won."""
    probs = [0.0] * state.n
    if state.winner >= 0:
        probs[state.winner] = 1.0
    return WinEstimate(tuple(probs), tuple([0.0] * state.n), 0)


def estimate_win_probabilities(
    state: State,
    playouts: int,
    seed: int,
    *,
    turn_cap: int = TURN_CAP,
    target_stderr: float | None = 0.015,
    min_playouts: int = MIN_PLAYOUTS,
    cards_drawn: tuple[int, int] | None = None,
) -> WinEstimate:
    """Each seat's chance of winning from ``state``, by at most ``playouts``
    playouts with the heuristic bot in every seat (see the module's text).

    ``seed`` is the estimator's own: the same state and seed give the same
    estimate. ``cards_drawn`` is how many cards were drawn from each deck so
    far (``count_draws(events)``); without it the whole decks are reshuffled.
    With ``target_stderr``, the playouts stop early, after ``min_playouts``,
    once every seat's standard error is below it. ``state`` is not changed."""
    if playouts < 1:
        raise ValueError("An estimate needs at least one playout.")
    if turn_cap < 1:
        raise ValueError("The turn cap must be at least one player-turn.")
    if state.phase == P_OVER:
        return finished_estimate(state)
    base = public_state(state)
    unseen = unseen_cards(base, cards_drawn)
    n = base.n
    # One bot per seat for all playouts: a heuristic bot reads everything
    # from the state (its caches are keyed by the owner layout).
    bots = [make_bot("heuristic", "pay") for _ in range(n)]
    sums = [0.0] * n
    squares = [0.0] * n
    result = [0.0] * n
    done = 0
    while done < playouts:
        s = playout_start(base, seed, done, unseen)
        ended = play_out(s, bots, turn_cap)
        for p in range(n):
            result[p] = 0.0
        _score(s, ended, result)
        for p in range(n):
            x = result[p]
            sums[p] += x
            squares[p] += x * x
        done += 1
        if (
            target_stderr is not None
            and done >= min_playouts
            and done % CHECK_EVERY == 0
            and max(_stderrs(sums, squares, done)) < target_stderr
        ):
            break
    probs = tuple(x / done for x in sums)
    return WinEstimate(probs, tuple(_stderrs(sums, squares, done)), done)


def _stderrs(sums: list[float], squares: list[float], k: int) -> list[float]:
    """Standard error of each mean (sample variance with k - 1)."""
    if k < 2:
        return [0.0] * len(sums)
    out = []
    for total, sq in zip(sums, squares, strict=True):
        mean = total / k
        var = max(0.0, (sq - k * mean * mean) / (k - 1))
        out.append(math.sqrt(var / k))
    return out


__all__ = [
    "WinEstimate",
    "count_draws",
    "estimate_win_probabilities",
    "finished_estimate",
    "playout_start",
    "public_state",
    "unseen_cards",
]
