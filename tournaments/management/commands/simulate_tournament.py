"""``manage.py simulate_tournament``: a whole event with engine bots, no site.

Seating goes through ``tournaments.pairing`` and the standings through
``tournaments.standing``, exactly as the site runs them; each table plays a
real bot game (``games.engine.play_game``, heuristic bots) ended by the
engine's ``turn_limit`` rule, places by the engine's valuation (bankrupt
players after the survivors, the last to fall first). ``--quick`` draws
each table's places from the seeded generator instead, for seating figures
on big events. Prints one JSON object (docs/tournaments.md reads it).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engine
from games.ranking import final_ranking
from tournaments import pairing, standing

#: (place, net worth) for each seat of a table, in seat order.
Play = Callable[[list[int], int], list[tuple[int, int]]]


@dataclass
class Event:
    """What the simulation keeps between rounds."""

    players: list[int]
    size: int
    lo: int
    hi: int
    seed: int
    play: Play
    outcomes: list[standing.Outcome] = field(default_factory=list)
    meetings: Counter[tuple[int, int]] = field(default_factory=Counter)
    met: dict[int, set[int]] = field(default_factory=dict)
    opponents_seen: Counter[int] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    rounds: int = 0
    tables: int = 0
    seating_seconds: list[float] = field(default_factory=list)
    history_bound: int = 0
    games: int = 0

    def order(self, among: Sequence[int] | None = None) -> list[int]:
        rows = standing.rank(self.players if among is None else among, self.outcomes)
        return [r.player for r in rows]

    def play_round(self, seating: pairing.Seating, bye_points: float | None) -> dict[int, int]:
        """Play every table; return each seated player's place."""
        self.rounds += 1
        self.history_bound += round_bound(seating.tables, self.met)
        places: dict[int, int] = {}
        for table in seating.tables:
            self.tables += 1
            points = pairing.default_points(len(table))
            result = self.play(table, self.games)
            self.games += 1
            for who, (place, worth) in zip(table, result, strict=True):
                places[who] = place
                self.outcomes.append(
                    standing.Outcome(
                        player=who,
                        round_no=self.rounds,
                        points=points[place - 1],
                        place=place,
                        net_worth=worth,
                        opponents=tuple(x for x in table if x != who),
                    )
                )
            for i, a in enumerate(table):
                self.opponents_seen[a] += len(table) - 1
                self.met.setdefault(a, set()).update(x for x in table if x != a)
                for b in table[i + 1 :]:
                    self.meetings[(min(a, b), max(a, b))] += 1
        for who in seating.byes:
            self.byes[who] += 1
            if bye_points is not None:
                self.outcomes.append(
                    standing.Outcome(player=who, round_no=self.rounds, points=bye_points)
                )
        return places

    def timed(self, seat: Callable[..., pairing.Seating], *args: Any, **kw: Any) -> pairing.Seating:
        start = time.perf_counter()
        seating = seat(*args, **kw)
        self.seating_seconds.append(time.perf_counter() - start)
        return seating


def round_bound(tables: Sequence[Sequence[int]], met: dict[int, set[int]]) -> int:
    """Repeat meetings this round cannot avoid given the earlier rounds as
    played: a single table's repeats exactly; else a seated player who has
    met ``d`` of the other ``m - 1`` seated players and sits at a table of
    at least ``s`` meets at least ``(s - 1) - (m - 1 - d)`` of them again
    (each repeat pair counted by both of its players)."""
    seated = [p for t in tables for p in t]
    if not seated:
        return 0
    if len(tables) == 1:
        return pairing.repeats(tables, met)
    pool = set(seated)
    m = len(seated)
    s = min(len(t) for t in tables)
    forced = 0
    for p in seated:
        d = len(met.get(p, set()) & pool)
        forced += max(0, (s - 1) - (m - 1 - d))
    return (forced + 1) // 2


def engine_play(turn_limit: int, seed: int) -> Play:
    """Real bot games: the engine's ``turn_limit`` rule ends each one."""
    rules = engine.ruleset("us-2003", turn_limit=turn_limit)

    def play(table: list[int], index: int) -> list[tuple[int, int]]:
        res = engine.play_game(
            rules, len(table), engine.game_seed(seed, index), "heuristic", "pay", turn_limit * 4
        )
        if res.state.phase == engine.P_OVER:
            ranking = [(p, rank, worth) for rank, p, worth in final_ranking(res.state)]
        else:
            # A bot loop cut short by the action budget: places by net worth.
            s = res.state
            worth = [engine.total_worth(s, p) if s.alive[p] else 0 for p in range(s.n)]
            by = sorted(range(s.n), key=lambda p: (-worth[p], p))
            ranking = [(p, rank, worth[p]) for rank, p in enumerate(by, start=1)]
        out = {p: (rank, worth) for p, rank, worth in ranking}
        return [out[i] for i in range(len(table))]

    return play


def quick_play(seed: int) -> Play:
    """Places drawn from the seeded generator (``--quick``)."""

    def play(table: list[int], index: int) -> list[tuple[int, int]]:
        rng = random.Random(f"{seed}:quick:{index}")
        places = list(range(1, len(table) + 1))
        rng.shuffle(places)
        return [(pl, max(0, 3000 - 600 * pl + rng.randrange(500))) for pl in places]

    return play


def run_swiss(ev: Event, rounds: int) -> int:
    bye = pairing.bye_points(pairing.default_points(ev.size))
    for r in range(1, rounds + 1):
        order = ev.order()
        seating = ev.timed(
            pairing.seat_swiss,
            order,
            ev.met,
            ev.byes,
            size=ev.size,
            lo=ev.lo,
            hi=ev.hi,
            seed=ev.seed,
            round_no=r,
        )
        ev.play_round(seating, bye)
    return ev.order()[0]


def run_elimination(ev: Event, advance: int) -> int:
    """Top ``advance`` of each table go through (byes too) until the alive
    fit one table, which is the final."""
    if not 1 <= advance < ev.lo:
        raise CommandError("--advance must be at least 1 and below the table minimum.")
    alive = list(ev.players)
    while True:
        order = ev.order(alive)
        if len(order) <= ev.hi:
            seating = ev.timed(pairing.Seating, tables=[order])
            places = ev.play_round(seating, None)
            return min(order, key=lambda p: places[p])
        seating = ev.timed(
            pairing.seat_elimination,
            order,
            size=ev.size,
            lo=ev.lo,
            hi=ev.hi,
            seed=ev.seed,
            round_no=ev.rounds + 1,
            met=ev.met,
        )
        places = ev.play_round(seating, None)
        alive = list(seating.byes) + [p for t in seating.tables for p in t if places[p] <= advance]


def run_roundrobin(ev: Event, rounds: int, group_size: int, final: int) -> int:
    """Groups (snake by the seeded order) play their schedules side by side;
    the top ``final`` of each group then play one final table."""
    rng = random.Random(f"{ev.seed}:groups")
    seeded = list(ev.players)
    rng.shuffle(seeded)
    n_groups = max(1, round(len(seeded) / group_size)) if group_size else 1
    groups: list[list[int]] = [[] for _ in range(n_groups)]
    for i, p in enumerate(seeded):
        lap, k = divmod(i, n_groups)
        groups[k if lap % 2 == 0 else n_groups - 1 - k].append(p)
    schedules: list[list[pairing.Seating]] = []
    start = time.perf_counter()
    for gi, g in enumerate(groups):
        schedules.append(
            pairing.roundrobin_schedule(
                g, size=ev.size, lo=ev.lo, hi=ev.hi, rounds=rounds, seed=ev.seed * 1000 + gi
            )
        )
    # The whole schedule is made before round 1: its time is every round's.
    ev.seating_seconds.append(time.perf_counter() - start)
    bye = pairing.bye_points(pairing.default_points(ev.size))
    for r in range(rounds):
        merged = pairing.Seating(
            tables=[t for s in schedules for t in s[r].tables],
            byes=[p for s in schedules for p in s[r].byes],
        )
        ev.play_round(merged, bye)
    if final and n_groups > 1:
        finalists = [p for g in groups for p in ev.order(g)[:final]]
        order = ev.order(finalists)
        places = ev.play_round(pairing.Seating(tables=[order]), None)
        return min(order, key=lambda p: places[p])
    return ev.order()[0]


def simulate(
    *,
    fmt: str,
    players: int,
    size: int,
    lo: int,
    hi: int,
    rounds: int,
    seed: int,
    quick: bool = False,
    turn_limit: int = 300,
    advance: int = 2,
    group_size: int = 0,
    group_final: int = 0,
) -> dict[str, Any]:
    """Run one event and return the summary (the command's JSON object)."""
    pairing.check_bounds(size, lo, hi)
    if players < 2:
        raise CommandError("--players must be at least 2.")
    start = time.perf_counter()
    ev = Event(
        players=list(range(1, players + 1)),
        size=size,
        lo=lo,
        hi=hi,
        seed=seed,
        play=quick_play(seed) if quick else engine_play(turn_limit, seed),
    )
    if fmt == "swiss":
        winner = run_swiss(ev, rounds)
    elif fmt == "elimination":
        winner = run_elimination(ev, advance)
    elif fmt == "roundrobin":
        winner = run_roundrobin(ev, rounds, group_size, group_final)
    else:
        raise CommandError(f"Unknown format {fmt!r}.")
    repeat_meetings = sum(k - 1 for k in ev.meetings.values() if k > 1)
    pigeonhole = pairing.lower_bound_repeats(ev.opponents_seen, players)
    return {
        "format": fmt,
        "players": players,
        "table_size": size,
        "table_min": lo,
        "table_max": hi,
        "seed": seed,
        "results": "drawn" if quick else "engine",
        "rounds": ev.rounds,
        "tables": ev.tables,
        "repeat_meetings": repeat_meetings,
        "repeat_lower_bound": max(pigeonhole, ev.history_bound),
        "repeat_lower_bound_pigeonhole": pigeonhole,
        "repeat_lower_bound_given_history": ev.history_bound,
        "byes_max_per_player": max((ev.byes[p] for p in ev.players), default=0),
        "byes_min_per_player": min((ev.byes[p] for p in ev.players), default=0),
        "seating_seconds_max": round(max(ev.seating_seconds, default=0.0), 4),
        "winner": winner,
        "seconds": round(time.perf_counter() - start, 3),
    }


class Command(BaseCommand):
    help = "Play a whole tournament with engine bots and report the seating's figures."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--format", choices=["swiss", "elimination", "roundrobin"], default="swiss"
        )
        parser.add_argument("--players", type=int, default=30)
        parser.add_argument("--table-size", type=int, default=4)
        parser.add_argument("--table-min", type=int, default=None, help="default: size - 1")
        parser.add_argument("--table-max", type=int, default=None, help="default: size + 1")
        parser.add_argument("--rounds", type=int, default=5, help="Swiss and round-robin")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--advance", type=int, default=2, help="elimination: top q go on")
        parser.add_argument("--group-size", type=int, default=0, help="round-robin; 0: one")
        parser.add_argument("--group-final", type=int, default=0, help="round-robin finalists")
        parser.add_argument(
            "--turn-limit", type=int, default=300, help="the engine's turn_limit for each game"
        )
        parser.add_argument(
            "--quick",
            action="store_true",
            help="draw each table's places from the seeded generator instead of playing",
        )
        parser.add_argument("--json", action="store_true", help="print JSON (the default)")

    def handle(self, *args: Any, **opts: Any) -> None:
        size = opts["table_size"]
        lo = opts["table_min"] if opts["table_min"] is not None else max(2, size - 1)
        hi = opts["table_max"] if opts["table_max"] is not None else size + 1
        try:
            result = simulate(
                fmt=opts["format"],
                players=opts["players"],
                size=size,
                lo=lo,
                hi=hi,
                rounds=opts["rounds"],
                seed=opts["seed"],
                quick=opts["quick"],
                turn_limit=opts["turn_limit"],
                advance=opts["advance"],
                group_size=opts["group_size"],
                group_final=opts["group_final"],
            )
        except ValueError as e:
            raise CommandError(str(e)) from e
        self.stdout.write(json.dumps(result))
