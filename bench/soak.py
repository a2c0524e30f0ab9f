"""Games played through faults, and what the record says afterwards (`make soak`).

Starts its own stack (bench/stack.py: a fresh PostgreSQL database, its own
redis-server, two Daphnes behind nginx when installed, two Celery workers
and a beat sweeping every second), then plays SOAK_GAMES games for
SOAK_SECONDS. Most seats are site bots; some are scripted people who log in,
read the action panel the page renders, think, and post one of its forms
with the version it shows (bench/agents.py); anonymous spectators follow
every game over its socket the way static/js/live.js does. Half of the
games run short timers and their people now and then leave a decision to
the timer, so deadlines fall due throughout. Meanwhile faults strike at
random moments: a worker, a Daphne or beat is SIGKILLed and started again,
Redis is restarted empty, and the site's PostgreSQL connections are
terminated.

At the end it checks that every move a client was told was applied is in
the event log exactly once, that every deadline was resolved once and in
time (the sweep plus 2 s after it fell due, or after a fault that overlapped
it ended), that every game replays from its record and passes the engine's
invariants at every step, that every spectator shows the final version and
how long each took to catch up after a fault, which 5xx answers the site
gave and which the load balancer gave while a Daphne was down, and that no
game sat idle while a bot move or a deadline was overdue. Prints one JSON
line; exits 1 if a zero target is missed.

    python bench/soak.py [--games 30] [--seconds 150] [--short] [--seed N] [--keep-logs]

SOAK_GAMES and SOAK_SECONDS set the defaults; --short is the minute-long run
`make test` uses (every fault kind once). With more than 30 games, bot
delays, think times, the people's polling and the short timers are
stretched by games / 30 (--pace), so that the moves asked of the machine
stay those of the 30-game soak: 200 games at the 30-game pace would ask about seven times what two
cores make (make bench-load), and every game would be overdue by queueing
alone. Faults come that much less often too (every kind once per 75 s times
the pace), because each costs recovery work per socket. The soak proves
nothing is lost or stalled; bench-load measures speed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agents import HttpClient, Player, Spectator, Stats
from benchlib import BASE_DIR, machine
from stack import HARNESS_APP_NAME, Stack

FAULT_KINDS = ("worker", "daphne", "beat", "redis", "postgres")
MOVE_MARGIN = 2.0
HEARTBEAT = 30.0  # LIVE_HEARTBEAT_SECONDS as in production: the pages' quiet-spell check  # seconds: "the sweep plus one move" beyond a due time


@dataclass
class Fault:
    kind: str
    start: float
    end: float = 0.0
    detail: str = ""


@dataclass
class GameSpec:
    pk: int
    public_id: str
    humans: list[tuple[int, str]]  # seat, username
    bots: set[int]
    short_timers: bool
    bot_delay: float
    idle: float


@dataclass
class Run:
    stack: Stack
    specs: list[GameSpec]
    stats: Stats = field(default_factory=Stats)
    faults: list[Fault] = field(default_factory=list)
    spectators: dict[int, list[Spectator]] = field(default_factory=dict)
    deadlines: dict[int, dict[str, Any]] = field(default_factory=dict)
    # game -> what was overdue -> [due (s into the run), longest seen overdue (s)]
    stalls: dict[int, dict[str, list[float]]] = field(default_factory=dict)
    resync_marks: list[tuple[float, dict[int, int], str]] = field(default_factory=list)
    started: float = 0.0
    movers_stopped: float = 0.0
    # Processes that exited by themselves (not killed by a fault): name, when.
    exits: list[tuple[str, float, int | None]] = field(default_factory=list)
    down: set[str] = field(default_factory=set)  # killed on purpose, being restarted
    supervise: bool = False


PASSWORD = "soak-password-1"


def address(kind: int, index: int) -> str:
    """A loopback address of its own per client, so per-address limits
    (logins, actions) count each person apart, as on the internet."""
    return f"127.{kind}.{index // 250 % 250}.{index % 250 + 1}"


# --- setting up ---------------------------------------------------------------


def create_games(count: int, rng: random.Random, pace: float = 1.0) -> list[GameSpec]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from games import services
    from games.models import Game
    from games.services.lobby import _start
    from games.services.write import game_transaction, lock
    from games.writeguard import writes_allowed

    User = get_user_model()
    # One hash for every account (each login still checks it in full).
    password = make_password(PASSWORD)
    specs = []
    person = 0
    for i in range(count):
        pattern = i % 6
        humans = {0: 2, 5: 0}.get(pattern, 1)
        short = i % 2 == 0
        idle = (0.3 if pattern == 4 else 0.12) if short else 0.0
        users = []
        for _ in range(humans):
            name = f"soak{person}"
            person += 1
            user = User.objects.create_user(name, f"{name}@example.com", None)
            user.password = password
            user.save(update_fields=["password"])
            users.append(user)
        bots = ["heuristic" if (i + j) % 3 else "random" for j in range(4 - humans)]
        delay = round(rng.randint(200, 800) * pace)
        game = services.create_seated_game(
            humans=users, bots=bots, turn_seconds=60, bot_delay_ms=delay, start=False
        )
        # Timers shorter than the lobby offers (a minute at least), so that
        # deadlines fall due within the soak; no take-over, so that every
        # move of a person's seat without a note is a post of theirs.
        timers = {"takeover_after": 0}
        if short:
            timers.update(
                turn_seconds=round(5 * pace),
                bid_window_seconds=round(3 * pace),
                claim_window_seconds=round(3 * pace),
                trade_expiry_seconds=round(6 * pace),
            )
        else:
            timers.update(turn_seconds=600)
        # Timers shorter than the lobby offers, so that faults meet deadlines.
        with writes_allowed("the soak's games get timers of seconds"):
            Game.objects.filter(pk=game.pk).update(**timers)
        with game_transaction():
            _start(lock(game.pk))
        specs.append(
            GameSpec(
                pk=game.pk,
                public_id=game.public_id,
                humans=[(n, u.username) for n, u in enumerate(users)],
                bots=set(range(humans, 4)),
                short_timers=short,
                bot_delay=delay / 1000,
                idle=idle,
            )
        )
    return specs


# --- during the run -----------------------------------------------------------


def allowed_until(due: float, allowance: float, faults: list[Fault]) -> float:
    """When something due at ``due`` must have happened: ``allowance`` after
    it, or after the end of a fault that overlapped that wait."""
    limit = due + allowance
    for fault in sorted(faults, key=lambda f: f.start):
        end = fault.end or time.time() + 3600
        if fault.start <= limit and end >= due:
            limit = max(limit, end + allowance)
    return limit


def poll_deadlines(run: Run) -> None:
    from games.models import Deadline

    now = time.time()
    rows = Deadline.objects.filter(game_id__in=[s.pk for s in run.specs]).values_list(
        "id", "game_id", "player", "kind", "due_at"
    )
    for pk, game_id, player, kind, due_at in rows:
        entry = run.deadlines.setdefault(
            pk,
            {"game": game_id, "player": player, "kind": kind, "due": due_at.timestamp(),
             "first_seen": now},
        )  # fmt: skip
        entry["due"] = due_at.timestamp()
        entry["last_seen"] = now


def check_stalls(run: Run, sweep: float) -> None:
    """A game whose bot move or deadline is overdue by more than the sweep
    plus one move (faults allowed for) is stalled."""
    from games import engine
    from games.models import Deadline, Game

    now = time.time()
    by_pk = {s.pk: s for s in run.specs}
    rows = Game.objects.filter(pk__in=list(by_pk), status=Game.Status.ACTIVE).values_list(
        "pk", "version", "updated_at", "state"
    )
    for pk, version, updated_at, state_dict in rows:
        spec = by_pk[pk]
        state = engine.from_dict(state_dict)
        if state.finished or not any(
            p.player in spec.bots for p in engine.pending_decisions(state)
        ):
            continue
        due = updated_at.timestamp() + spec.bot_delay
        if now > allowed_until(due, sweep + MOVE_MARGIN, run.faults):
            note_stall(run, pk, f"bot move at version {version}", due, now)
    overdue = Deadline.objects.filter(game_id__in=list(by_pk)).values_list(
        "game_id", "id", "due_at"
    )
    for game_id, pk, due_at in overdue:
        due = due_at.timestamp()
        if now > allowed_until(due, sweep + MOVE_MARGIN, run.faults):
            note_stall(run, game_id, f"deadline {pk}", due, now)


def note_stall(run: Run, game: int, what: str, due: float, now: float) -> None:
    """Keep, per game and overdue thing, when it was due and how long it has
    been overdue at most."""
    entry = run.stalls.setdefault(game, {})
    first = entry.setdefault(what, [round(due - run.started, 1), 0.0])
    first[1] = round(max(first[1], now - due), 1)


def game_versions(run: Run) -> dict[int, int]:
    from games.models import Game

    return dict(Game.objects.filter(pk__in=[s.pk for s in run.specs]).values_list("pk", "version"))


def check_processes(run: Run) -> list[str]:
    """Processes of the stack that exited although no fault killed them."""
    gone = []
    for name, proc in run.stack.procs.items():
        if name in run.down or proc.process is None or proc.process.poll() is None:
            continue
        run.exits.append((name, round(time.time() - run.started, 1), proc.process.returncode))
        run.down.add(name)
        gone.append(name)
    return gone


async def monitor(run: Run, db: ThreadPoolExecutor, stop: asyncio.Event, sweep: float) -> None:
    loop = asyncio.get_running_loop()
    tick = 0
    while not stop.is_set():
        for name in check_processes(run):
            if run.supervise:
                # As a process manager (systemd's Restart=always) would.
                await loop.run_in_executor(None, run.stack.restart, name)
                run.down.discard(name)
        try:
            await loop.run_in_executor(db, poll_deadlines, run)
            if tick % 2 == 0:
                await loop.run_in_executor(db, check_stalls, run, sweep)
        except Exception as exc:
            run.stats.errors.append(f"monitor: {exc!r}")
            await loop.run_in_executor(db, _reset_connection)
        tick += 1
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)


def _reset_connection() -> None:
    from django.db import connection

    connection.close()


async def inject_faults(
    run: Run,
    db: ThreadPoolExecutor,
    seconds: float,
    rounds: int,
    rng: random.Random,
    kinds: tuple[str, ...] = FAULT_KINDS,
) -> None:
    """Every kind ``rounds`` times, in a random order, each at a random
    moment of its own slot of the run (the first and last tenth spared)."""
    loop = asyncio.get_running_loop()
    plan = [kind for _ in range(rounds) for kind in rng.sample(kinds, len(kinds))]
    first, last = 0.1 * seconds, 0.8 * seconds
    slot = (last - first) / len(plan)
    for n, kind in enumerate(plan):
        at = run.started + first + slot * n + rng.uniform(0, slot * 0.5)
        await asyncio.sleep(max(0.0, at - time.time()))
        fault = Fault(kind, time.time())
        run.faults.append(fault)
        down = rng.uniform(0.5, 2.5)
        stack = run.stack
        if kind == "worker":
            name = f"worker{rng.randrange(stack.workers)}"
        elif kind == "daphne":
            name = f"daphne{rng.randrange(stack.daphnes)}"
        else:
            name = kind
        fault.detail = name
        run.down.add(name)
        if kind == "postgres":
            killed = await loop.run_in_executor(None, stack.terminate_database_connections)
            fault.detail = f"{killed} connections"
        elif kind == "redis":
            await loop.run_in_executor(None, stack.restart_redis_empty)
        else:
            stack.kill(name)
            await asyncio.sleep(down)
            await loop.run_in_executor(None, stack.restart, name)
        fault.end = time.time()
        run.down.discard(name)
        versions = await loop.run_in_executor(db, game_versions, run)
        run.resync_marks.append((fault.end, versions, name))


# --- the run ------------------------------------------------------------------


async def play(
    run: Run,
    seconds: float,
    rounds: int,
    rng: random.Random,
    pace: float = 1.0,
    kinds: tuple[str, ...] = FAULT_KINDS,
) -> dict[str, Any]:
    stack = run.stack
    db = ThreadPoolExecutor(max_workers=1)
    loop = asyncio.get_running_loop()
    sweep = float(stack.sweep_seconds)
    ports = stack.ports
    stop_players = asyncio.Event()
    stop_spectators = asyncio.Event()
    stop_monitor = asyncio.Event()

    tasks = []
    ready_events = []
    watcher = 0
    for spec in run.specs:
        run.spectators[spec.pk] = []
        for _ in range(2 if spec.pk % 3 == 0 else 1):
            index = watcher
            watcher += 1
            path = f"/ws/games/{spec.public_id}/"

            def url_for(attempt: int, index: int = index, path: str = path) -> str:
                return f"ws://127.0.0.1:{ports[(index + attempt) % len(ports)]}{path}"

            def origin_for(attempt: int, index: int = index) -> str:
                return f"http://127.0.0.1:{ports[(index + attempt) % len(ports)]}"

            spectator = Spectator(
                url_for, origin_for, source=address(2, index), heartbeat=HEARTBEAT
            )
            run.spectators[spec.pk].append(spectator)
            ready = asyncio.Event()
            ready_events.append(ready)
            tasks.append(asyncio.create_task(spectator.run(stop_spectators, ready)))
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready_events)), 120)

    players = []
    person = 0
    for spec in run.specs:
        for seat, _ in spec.humans:
            client = HttpClient(ports, source=address(1, person), first=person)
            person += 1
            player = Player(
                client, spec.public_id, seat, run.stats, idle=spec.idle,
                think=(0.3 * pace, 2.0 * pace), poll=pace, rng=random.Random(rng.random()),
            )  # fmt: skip
            players.append(player)
    names = [name for spec in run.specs for _, name in spec.humans]
    for i in range(0, len(players), 4):  # a few at a time, as people arrive
        batch = list(zip(players[i : i + 4], names[i : i + 4], strict=True))
        await asyncio.gather(*(p.client.login(name, PASSWORD) for p, name in batch))

    run.started = time.time()
    say(f"{len(players)} players signed in, {watcher} spectators watching")
    player_tasks = [asyncio.create_task(p.run(stop_players)) for p in players]
    monitor_task = asyncio.create_task(monitor(run, db, stop_monitor, sweep))
    faults_task = asyncio.create_task(inject_faults(run, db, seconds, rounds, rng, kinds))
    await asyncio.sleep(max(0.0, run.started + seconds - time.time()))
    stop_players.set()
    await faults_task  # a fault still under way is finished first
    await asyncio.gather(*player_tasks, return_exceptions=True)
    for player in players:
        await player.client.close()
    # Bots and timers go on a little: whatever is overdue must still move.
    await asyncio.sleep(sweep + MOVE_MARGIN + 1)
    stop_monitor.set()
    await monitor_task
    await loop.run_in_executor(db, poll_deadlines, run)
    await loop.run_in_executor(db, check_stalls, run, sweep)
    # Nothing moves the games any more: every spectator must catch up.
    run.movers_stopped = time.time()
    run.down.update(stack.procs)
    for name in ["beat", *[f"worker{i}" for i in range(stack.workers)]]:
        await loop.run_in_executor(None, stack.procs[name].stop)
    final = await loop.run_in_executor(db, game_versions, run)
    run.resync_marks.append((time.time(), final, "final"))
    # A page behind with nothing more to come notices at its next heartbeat.
    end = time.time() + HEARTBEAT * 7 / 6 + 5
    while time.time() < end and not all(
        s.version >= final[pk] for pk, group in run.spectators.items() for s in group
    ):
        await asyncio.sleep(0.1)
    stop_spectators.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    say("checking the record")
    result = await loop.run_in_executor(db, analyse, run, final, sweep)
    db.shutdown()
    return result


# --- the checks -----------------------------------------------------------------


def slow_catch_up(
    run: Run,
    fault: str,
    mark: float,
    took: float,
    versions: dict[int, int],
    pk: int,
    spectator: Spectator,
) -> dict[str, Any]:
    """What the spectator slowest to catch up after a fault went through:
    its frames and its socket's events from a little before the fault."""
    since = mark - 10
    at = lambda t: round(t - run.started, 2)  # noqa: E731
    return {
        "fault": fault, "at": at(mark), "took": round(took, 2), "game": pk,
        "target": versions.get(pk, 0),
        "versions": [[at(t), v] for t, v in spectator.seen if since <= t <= mark + took + 1],
        "events": [[at(t), e] for t, e in spectator.events if since <= t <= mark + took + 1],
    }  # fmt: skip


def same_move(event: dict[str, Any], fields: dict[str, str], seat: int) -> bool:
    if event.get("kind") != fields.get("kind") or event.get("player") != seat:
        return False
    for name in ("square", "target", "amount"):
        if name in fields and str(event.get(name)) != fields[name]:
            return False
    return True


def analyse(run: Run, final: dict[int, int], sweep: float) -> dict[str, Any]:
    from games import engine
    from games.models import Game, GameEvent

    ids = [s.pk for s in run.specs]
    by_public = {s.public_id: s for s in run.specs}
    actions: dict[tuple[int, int], dict[str, Any]] = {}
    notes: dict[tuple[int, int], dict[str, Any]] = {}
    timeouts: list[tuple[int, dict[str, Any], float]] = []
    rows = GameEvent.objects.filter(game_id__in=ids, kind__in=["action", "note"]).values_list(
        "game_id", "seq", "index", "kind", "payload", "created_at"
    )
    for game_id, seq, index, kind, payload, created in rows:
        if kind == "action":
            actions[(game_id, seq)] = payload
        elif index == 1:
            notes[(game_id, seq)] = payload
            if payload.get("source") == "timeout":
                timeouts.append((game_id, payload, created.timestamp()))

    # Every move a client was told was applied is in the log, once.
    lost = 0
    applied_by_clients = 0
    explained: set[tuple[int, int]] = set()
    told_twice = 0
    lost_seen: list[list[Any]] = []
    last = max((seq for _, seq in actions), default=0)
    # Those told they were applied first: a refused repeat never takes their move.
    for attempt in sorted(run.stats.attempts, key=lambda a: not a.told_applied):
        spec = by_public[attempt.game]
        # A move lands on the version it was posted against, or, one the
        # client was told was applied that still meant the same after others
        # moved (a pass, an end of turn: the engine's STILL_MEANT), on a
        # later one: its player's first there.
        later = attempt.told_applied and attempt.fields.get("kind") in engine.STILL_MEANT
        key = None
        for seq in range(attempt.version + 1, last + 1 if later else attempt.version + 2):
            event = actions.get((spec.pk, seq))
            if event is None or event.get("player") != attempt.player:
                continue
            fresh = (spec.pk, seq) not in notes and (spec.pk, seq) not in explained
            if fresh and same_move(event, attempt.fields, attempt.player):
                key = (spec.pk, seq)
            break
        if key is not None:
            applied_by_clients += 1
            explained.add(key)
        elif attempt.told_applied:
            lost += 1
            if len(lost_seen) < 10:
                after = [
                    [
                        seq,
                        actions[(spec.pk, seq)].get("player"),
                        actions[(spec.pk, seq)].get("kind"),
                    ]
                    for seq in range(attempt.version + 1, attempt.version + 8)
                    if (spec.pk, seq) in actions
                ]
                lost_seen.append(
                    [
                        attempt.game,
                        attempt.player,
                        attempt.version,
                        attempt.fields,
                        attempt.answers,
                        after,
                    ]
                )
        told_twice += max(0, attempt.answers.count(200) - 1)
    people = {(s.pk, seat) for s in run.specs for seat, _ in s.humans}
    unexplained = [
        key
        for key, event in actions.items()
        if (key[0], event.get("player")) in people and key not in notes and key not in explained
    ]
    duplicates = len(unexplained) + told_twice

    # Every deadline resolved once, in time.
    allowance = sweep + 2
    per_deadline = Counter(payload["deadline"] for _, payload, _ in timeouts)
    doubled = sum(1 for n in per_deadline.values() if n > 1)
    missed = []
    resolved_at = {payload["deadline"]: created for _, payload, created in timeouts}
    lateness = []
    horizon = run.movers_stopped
    for _, payload, created in timeouts:
        due = datetime.fromisoformat(payload["due_at"]).timestamp()
        lateness.append(created - due)
        if created > allowed_until(due, allowance, run.faults):
            missed.append((payload["deadline"], round(created - due, 2)))
    for pk, seen in run.deadlines.items():
        if pk in resolved_at:
            continue
        limit = allowed_until(seen["due"], allowance, run.faults)
        if limit < horizon and seen.get("last_seen", 0) > limit:
            missed.append((pk, "unresolved"))
    seen_due = [d for d in run.deadlines.values() if d["due"] < horizon]

    # Every game replays from its record and keeps the invariants.
    violations: list[str] = []
    statuses: Counter[str] = Counter()
    actions_applied = 0
    for game in Game.objects.filter(pk__in=ids):
        statuses[game.status] += 1
        problem = replay_problem(game)
        actions_applied += game.version - 1
        if problem:
            violations.append(f"{game.public_id}: {problem}")

    # Every spectator ends on the final version; catching up after faults.
    behind = 0
    resync: list[float] = []
    by_fault: list[list[Any]] = []
    unresynced = 0
    slowest: list[dict[str, Any]] = []
    for mark, versions, name in run.resync_marks:
        worst, worst_of = 0.0, None
        for pk, group in run.spectators.items():
            for spectator in group:
                reached = next((t for t, v in spectator.seen if v >= versions.get(pk, 0)), None)
                if reached is None:
                    unresynced += 1
                    took = time.time() - mark
                else:
                    took = max(0.0, reached - mark)
                resync.append(took)
                if took > worst:
                    worst, worst_of = took, (pk, spectator)
        by_fault.append([name, round(mark - run.started, 1), round(worst, 2)])
        if worst > 2 and worst_of is not None:
            slowest.append(slow_catch_up(run, name, mark, worst, versions, *worst_of))
    stuck = []
    for pk, group in run.spectators.items():
        for s in group:
            if s.version < final[pk]:
                behind += 1
            if any(
                not any(v >= versions.get(pk, 0) for _, v in s.seen)
                for _, versions, _ in run.resync_marks
            ):
                last = s.seen[-1][0] - run.started if s.seen else None
                stuck.append([pk, s.version, final[pk], s.connects, last and round(last, 1)])
    fault_resync = resync[: -sum(len(g) for g in run.spectators.values())] or [0.0]
    elapsed = (run.movers_stopped or time.time()) - run.started
    stats = run.stats
    return {
        "games": len(run.specs),
        "actions_applied": actions_applied,
        "actions_per_second": round(actions_applied / max(1.0, elapsed), 1),
        "faults_injected": dict(Counter(f.kind for f in run.faults)),
        "lost_actions": lost,
        "duplicate_actions": duplicates,
        "deadlines_missed": len(missed),
        "deadlines_doubled": doubled,
        "invariant_violations": len(violations),
        "max_resync_seconds": round(max(fault_resync), 2),
        "http_5xx": stats.http_5xx,
        "lb_errors": stats.lb_errors,
        "stalled_games": len(run.stalls),
        # Beside the targets: processes that died without being killed.
        "unexpected_exits": len(run.exits),
        # Beside the targets: what the figures above are made of.
        "detail": {
            "seconds": round(elapsed, 1),
            "client_posts": stats.posts,
            "client_moves_applied": applied_by_clients,
            "conflicts_409": stats.conflicts,
            "http_5xx_by_status": stats.http_5xx_by_status,
            # Each 5xx beside the fault that struck last before it.
            "http_5xx_after": dict(
                Counter(last_fault(run.faults, t) for t, _, _ in stats.http_5xx_seen)
            ),
            "http_5xx_paths": sorted({path.split("/")[-1] for _, _, path in stats.http_5xx_seen}),
            "other_4xx": stats.other_4xx,
            "requests": stats.requests,
            "lb_errors_while_no_daphne_was_down": sum(
                1
                for t in stats.lb_error_times
                if not any(f.kind == "daphne" and f.start <= t <= f.end + 1 for f in run.faults)
            ),
            "deadlines_seen": len(seen_due),
            "timeouts_logged": len(timeouts),
            "timeout_lateness_max": round(max(lateness), 2) if lateness else None,
            "missed": missed[:10],
            "lost": lost_seen,
            "violations": violations[:10],
            "longest_stall_seconds": max(
                (span[1] for entry in run.stalls.values() for span in entry.values()), default=0
            ),
            "stalls": {str(k): v for k, v in list(run.stalls.items())[:10]},
            "spectators": sum(len(g) for g in run.spectators.values()),
            "spectators_behind_at_end": behind,
            # game, version shown, final version, connections, seconds into
            # the run of its last new version
            "stuck_spectators": stuck[:10],
            "spectator_catch_ups_never_reached": unresynced,
            # after each fault (and at the end): its end (s into the run) and
            # the longest a spectator took to show the version the game had then
            "resync_after": by_fault,
            "slowest_catch_ups": slowest,
            "spectator_reconnects": sum(s.connects - 1 for g in run.spectators.values() for s in g),
            "spectator_resync_requests": sum(s.resyncs for g in run.spectators.values() for s in g),
            "spectator_heartbeats": sum(s.heartbeats for g in run.spectators.values() for s in g),
            "faults": [
                [f.kind, f.detail, round(f.start - run.started, 1), round(f.end - f.start, 1)]
                for f in run.faults
            ],
            "game_status": dict(statuses),
            "exits": run.exits,
            "supervised": run.supervise,
            "harness_errors": stats.errors[:5],
            "nginx": run.stack.nginx,
            "machine": machine(),
        },
    }


def last_fault(faults: list[Fault], when: float) -> str:
    before = [f for f in faults if f.start <= when]
    if not before:
        return "none"
    fault = max(before, key=lambda f: f.start)
    return f"{fault.kind} (+{when - fault.start:.0f} s)" if when - fault.end > 10 else fault.kind


def replay_problem(game: Any) -> str:
    """What is wrong with a game's record, or ""."""
    from games import engine
    from games.models import GameEvent
    from games.web.replay import load_replay

    seqs = list(
        GameEvent.objects.filter(game=game, kind="action")
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    if seqs != list(range(2, game.version + 1)):
        return f"the log's actions are not one per version 2..{game.version}"
    replay = load_replay(game)
    state = replay.initial_state()
    log: list[Any] = []
    for step, action in enumerate(replay.actions, start=1):
        try:
            engine.step(state, action, log)
        except engine.EngineError as exc:
            return f"step {step} does not replay: {exc}"
        broken = engine.check_invariants(state)
        if broken:
            return f"invariants broken after step {step}: {broken[:2]}"
    if engine.state_digest(engine.to_dict(state)) != engine.state_digest(game.state):
        return "the replay ends in another state than the stored one"
    if game.has_ended:
        verdict = engine.verify_record(replay.record())
        if not verdict.ok:
            return "; ".join(d for _, ok, d in verdict.checks if not ok)
    return ""


ZERO_TARGETS = (
    "lost_actions", "duplicate_actions", "deadlines_missed", "deadlines_doubled",
    "invariant_violations", "stalled_games",
)  # fmt: skip


def say(text: str) -> None:
    print(f"[soak {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=int(os.environ.get("SOAK_GAMES", 30)))
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", 150)))
    parser.add_argument("--short", action="store_true", help="the minute-long run of make test")
    parser.add_argument("--rounds", type=int, default=0, help="times each fault kind strikes")
    parser.add_argument(
        "--faults", default=",".join(FAULT_KINDS),
        help="the fault kinds to inject, comma-separated (a run with fewer is a study, never a pass)",
    )  # fmt: skip
    parser.add_argument("--no-nginx", action="store_true", help="clients spread over the Daphnes")
    parser.add_argument(
        "--supervise", action="store_true",
        help="start again a process that exits by itself, as a process manager would",
    )  # fmt: skip
    parser.add_argument(
        "--pace", type=float, default=0.0,
        help="stretch bot delays, think times, polling and timers by this factor (default: games / 30, "
        "at least 1: the moves asked of the machine stay those of the 30-game soak)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep-logs", action="store_true")
    opts = parser.parse_args(argv)
    if opts.short:
        opts.games, opts.seconds = min(opts.games, 12), 60.0
    pace = opts.pace or max(1.0, opts.games / 30)
    # A fault costs recovery work per socket (every page of a killed Daphne
    # reconnects and renders a snapshot): with pace times the sockets,
    # faults come pace times less often.
    rounds = opts.rounds or max(1, int(opts.seconds // (75 * pace)))
    kinds = tuple(k for k in opts.faults.split(",") if k)
    if not kinds or set(kinds) - set(FAULT_KINDS):
        parser.error(f"--faults takes some of {','.join(FAULT_KINDS)}")
    seed = opts.seed if opts.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)

    stack = Stack(name="soak", sweep_seconds=1, use_nginx=not opts.no_nginx)
    ok = False
    try:
        say(f"starting the stack (seed {seed})")
        stack.start()
        say(f"stack up (nginx: {stack.nginx}); logs in {stack.tmp}")
        os.environ.update({k: v for k, v in stack.env.items() if k != "PYTHONUNBUFFERED"})
        os.environ["PGAPPNAME"] = HARNESS_APP_NAME
        import django

        django.setup()
        specs = create_games(opts.games, rng, pace)
        say(f"{len(specs)} games started (pace {pace:.2f}); playing for {opts.seconds:.0f} s")
        run = Run(stack, specs, supervise=opts.supervise)
        result = asyncio.run(play(run, opts.seconds, rounds, rng, pace, kinds))
        result["seed"] = seed
        result["pace"] = pace
        result["detail"]["logs"] = str(stack.tmp)
        ok = (
            all(result[k] == 0 for k in (*ZERO_TARGETS, "unexpected_exits"))
            and result["max_resync_seconds"] <= 5
            and set(result["faults_injected"]) == set(FAULT_KINDS)
        )
        print(json.dumps(result), flush=True)
    finally:
        stack.stop()
        stack.drop()
        stack.cleanup(keep_logs=opts.keep_logs or not ok)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.path.insert(0, str(BASE_DIR))
    sys.exit(main())
