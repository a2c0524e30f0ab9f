"""Bot-vs-bot simulation: the logic behind ``manage.py simulate``."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .actions import BUILD, CLAIM_RENT, END_TURN, ROLL, Action
from .bots import make_bot, next_actor, out_of_turn_open
from .events import EventLog
from .game import RUNNERS, new_game, run_build, run_claim_rent, run_end_turn, run_roll, step
from .invariants import check_invariants
from .rng import next_u64, seed_state
from .rules import Ruleset, ruleset
from .state import P_OVER, State


@dataclass
class GameResult:
    state: State
    actions: list[Action]
    player_turns: int
    ended_by: str
    violations: list[str]


def game_seed(seed: int, index: int) -> int:
    _, r = next_u64(seed_state(seed) ^ (index * 0x9E3779B97F4A7C15))
    return r & 0x7FFFFFFFFFFF


def play_game(
    rules: Ruleset,
    players: int,
    seed: int,
    bot: str,
    jail_policy: str,
    max_turns: int,
    check: bool = False,
    positions: list[int] | None = None,
    record: bool = False,
) -> GameResult:
    """Play one bot game. ``positions`` (41 counters, index 40 = in jail)
    accumulates where each player-turn ended."""
    names = [f"{bot}-{i + 1}" for i in range(players)]
    s = new_game(rules, names, seed)
    bots = [make_bot(bot, jail_policy, seed * 31 + i) for i in range(players)]
    ev: EventLog = []
    actions: list[Action] = []
    violations: list[str] = []
    turns = 0
    budget = max_turns * 200 + 1000
    # Method calls on the bots and direct calls of the frequent runners
    # (rather than through lists and a dict of callables): compiled with
    # mypyc these are plain C calls.
    runners = RUNNERS
    # turn_no only moves when a turn ends: the limit is checked then.
    at_limit = s.turn_no >= max_turns
    while not at_limit and s.phase != P_OVER:
        # next_actor, inlined for the common case of nothing open out of turn
        if out_of_turn_open(s):
            p = next_actor(s)
            a = bots[p].act(s, p)
        else:
            p = s.turn
            a = bots[p].act_in_turn(s, p)
        prev, prev_no = s.turn, s.turn_no
        # step(s, a, ev) without its own call: the loop condition already
        # excludes a finished game, so only the kind's runner is left.
        k = a.kind
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
        ev.clear()
        if record:
            actions.append(a)
        if s.turn_no != prev_no:
            turns += 1
            if positions is not None:
                positions[40 if s.in_jail[prev] else s.pos[prev]] += 1
            at_limit = s.turn_no >= max_turns
        if check:
            errs = check_invariants(s)
            if errs:
                violations.extend(f"game seed {seed}, action {a}: {e}" for e in errs)
        budget -= 1
        if budget <= 0:
            return GameResult(s, actions, turns, "action_limit", violations)
    ended = s.end_reason if s.phase == P_OVER else "turn_limit"
    return GameResult(s, actions, turns, ended, violations)


def simulate(
    games: int,
    players: int = 4,
    seed: int = 1,
    ruleset_name: str = "us-2003",
    bot: str = "heuristic",
    jail_policy: str = "pay",
    max_turns: int = 1000,
    check_invariants: bool = False,
) -> dict[str, Any]:
    """Play ``games`` bot games and return the summary JSON object."""
    rules = ruleset(ruleset_name)
    positions = [0] * 41
    ended_by: dict[str, int] = {}
    total_turns = 0
    violations = 0
    examples: list[str] = []
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(games):
        res = play_game(
            rules,
            players,
            game_seed(seed, i),
            bot,
            jail_policy,
            max_turns,
            check=check_invariants,
            positions=positions,
        )
        total_turns += res.player_turns
        ended_by[res.ended_by] = ended_by.get(res.ended_by, 0) + 1
        violations += len(res.violations)
        examples.extend(res.violations[: 3 - len(examples)])
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    out: dict[str, Any] = {
        "games": games,
        "players": players,
        "ruleset": ruleset_name,
        "bot": bot,
        "jail_policy": jail_policy,
        "max_turns": max_turns,
        "seed": seed,
        "player_turns": total_turns,
        "seconds": round(seconds, 3),
        "player_turns_per_second": round(total_turns / seconds) if seconds > 0 else None,
        # CPU time of this process: a steadier figure on a shared machine.
        "cpu_seconds": round(cpu, 3),
        "invariant_violations": violations if check_invariants else None,
        "ended_by": dict(sorted(ended_by.items())),
        "end_of_turn_positions": {str(i): positions[i] for i in range(40)}
        | {"jail": positions[40]},
    }
    if examples:
        out["violation_examples"] = examples
    return out
