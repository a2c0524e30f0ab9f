"""The site under load, without faults (`make bench-load`).

On its own stack (bench/stack.py: a fresh PostgreSQL database, its own
redis-server, two Daphnes behind nginx when installed, two workers, beat):

1. ``--games`` (200) games of two people each, played at once over HTTP by
   scripted clients that post the forms their panels offer, paced so that
   together they offer ``--rate`` (300) moves a second; one anonymous
   spectator socket per game. Reports the moves applied per second, the
   POST's own time, and the push latency: from just before a move's POST
   until the game's spectator holds that version.
2. One game with ``--spectators`` (1,000) sockets (bench/watchers.py: lean
   ones, which only note when each version arrives): a move every ``--pause``
   seconds; per move, the time until the last spectator has it.

Every latency comes with the floor measured in the same run on the same
stack and client (benchlib: the p50 of an anonymous page request, and a
fixed pure-Python loop), and as a ratio to that page p50. Prints JSON.

    python bench/load.py [--games 200] [--rate 300] [--seconds 60]
                         [--spectators 1000] [--moves 40] [--pause 0.3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import spy
from agents import ConnectionFailed, HttpClient, Panel, Spectator, read_panel
from benchlib import (
    BASE_DIR,
    cpu_calibration_ms,
    floor_report,
    machine,
    page_floor_ms,
    percentile,
    ratio,
)
from cpu import per_unit, pid_cpu_ms
from stack import HARNESS_APP_NAME, HTTP_SERVERS, Stack
from watchers import Watcher, watch


def address(kind: int, index: int) -> str:
    return f"127.{kind}.{index // 250 % 250}.{index % 250 + 1}"


def create_games(count: int, tag: str) -> list[tuple[str, list[str]]]:
    """``count`` started games of two people, and each seat's session key."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services

    User = get_user_model()
    games = []
    for i in range(count):
        # No password: nothing to hash; the sessions are made here.
        users = [
            User.objects.create_user(f"{tag}{i}x{s}", f"{tag}{i}x{s}@example.com", None)
            for s in range(2)
        ]
        game = services.create_seated_game(
            humans=users, bots=[], start=True, turn_seconds=3 * 24 * 3600
        )
        keys = []
        for user in users:
            client = Client()
            client.force_login(user)
            keys.append(str(client.cookies["sessionid"].value))
        games.append((game.public_id, keys))
    return games


class Duo:
    """Both seats of one game, played as their pages play: each seat's socket
    brings its action panel with every version (as the page's socket does),
    and a move is posted from the panel of the newest version known."""

    def __init__(self, public_id: str, clients: list[HttpClient], rng: random.Random) -> None:
        self.public_id = public_id
        self.clients = clients
        self.rng = rng
        self.base = f"/games/{public_id}/"
        self.panels: list[Panel | None] = [None, None]
        self.changed = asyncio.Event()
        self.posts = 0
        self.gets = 0
        self.failures: dict[str, int] = {}
        self.finished = False
        self.frames = 0
        self.socket_panels = 0
        self.post_ms: list[tuple[float, float]] = []  # (sent at, ms)

    def socket(self, seat: int, ports: list[int], index: int) -> Spectator:
        """The seat's own socket, signed in with its session."""
        client = self.clients[seat]

        def on_frame(version: int, message: str) -> None:
            panel = read_panel(message)
            self.frames += 1
            if panel is not None:
                self.socket_panels += 1
                self.take(seat, panel)

        return spectator_for(
            ports, self.public_id, index, on_frame=on_frame,
            headers={"Cookie": f"sessionid={client.cookies['sessionid']}"},
        )  # fmt: skip

    def take(self, seat: int, panel: Panel) -> None:
        mine = self.panels[seat]
        if mine is None or panel.version > mine.version:
            self.panels[seat] = panel
            self.changed.set()

    async def get(self, seat: int) -> None:
        self.gets += 1
        try:
            answer = await self.clients[seat].request("GET", f"{self.base}regions")
        except ConnectionFailed:
            self.failures["get"] = self.failures.get("get", 0) + 1
            return
        panel = read_panel(answer.text) if answer.status == 200 else None
        if panel is not None:
            self.take(seat, panel)

    async def move(self, sent: dict[int, float]) -> bool | None:
        """Post one move of whoever has a decision: whether it was applied,
        None once nobody has a decision (the game is over)."""
        for _ in range(3):
            seat = next(
                (
                    s
                    for s in (0, 1)
                    if self.panels[s] is not None and self.panels[s].decisions and self._current(s)
                ),
                None,
            )
            if seat is None:
                # The other seat's push is on its way; after a second without
                # it, the page would be read afresh.
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), 1.0)
                except TimeoutError:
                    await asyncio.gather(self.get(0), self.get(1))
                continue
            panel = self.panels[seat]
            assert panel is not None
            usual = [c for c in panel.decisions if c.kind != "declare_bankruptcy"]
            choice = self.rng.choice(usual or panel.decisions)
            fields = {k: v for k, v in choice.fields.items() if k != "csrfmiddlewaretoken"}
            fields["expected_version"] = str(panel.version)
            client = self.clients[seat]
            headers = {
                "X-CSRFToken": client.cookies["csrftoken"],
                "HX-Request": "true",
                "Origin": client.origin(),
            }
            sent[panel.version + 1] = time.perf_counter()
            self.posts += 1
            try:
                answer = await client.request("POST", f"{self.base}act", fields, headers)
                began = sent[panel.version + 1]
                self.post_ms.append((began, (time.perf_counter() - began) * 1000))
            except ConnectionFailed:
                self.failures["conn"] = self.failures.get("conn", 0) + 1
                sent.pop(panel.version + 1, None)
                return False
            if answer.status != 200:
                key = str(answer.status)
                self.failures[key] = self.failures.get(key, 0) + 1
                sent.pop(panel.version + 1, None)
                await asyncio.gather(self.get(0), self.get(1))
                return False
            panel = read_panel(answer.text)
            if panel is not None:
                self.take(seat, panel)
            return True
        self.finished = True
        return None

    def _current(self, seat: int) -> bool:
        """The seat's panel is not older than the other's (so it is the game's)."""
        mine, other = self.panels[seat], self.panels[1 - seat]
        return mine is not None and (other is None or mine.version >= other.version)


async def connect_clients(ports: list[int], games: list[tuple[str, list[str]]]) -> list[Duo]:
    duos = []
    index = 0
    for public_id, keys in games:
        clients = []
        for key in keys:
            client = HttpClient(ports, source=address(1, index), first=index)
            index += 1
            client.cookies["sessionid"] = key
            clients.append(client)
        duos.append(Duo(public_id, clients, random.Random(index)))
    # Each client reads its game page once (which also sets its CSRF cookie).
    for i in range(0, len(duos), 20):
        batch = duos[i : i + 20]
        await asyncio.gather(*(d.clients[s].request("GET", d.base) for d in batch for s in (0, 1)))
    return duos


async def measure_floor(ports: list[int]) -> dict[str, float]:
    client = HttpClient(ports, source="127.9.0.1")

    async def page() -> None:
        await client.request("GET", "/")

    await page()  # the connection and the first render apart
    p50 = await page_floor_ms(page, 50)
    await client.close()
    return floor_report(p50, cpu_calibration_ms())


def spectator_for(ports: list[int], public_id: str, index: int, **kw: Any) -> Spectator:
    path = f"/ws/games/{public_id}/"

    def url_for(attempt: int) -> str:
        return f"ws://127.0.0.1:{ports[(index + attempt) % len(ports)]}{path}"

    def origin_for(attempt: int) -> str:
        return f"http://127.0.0.1:{ports[(index + attempt) % len(ports)]}"

    return Spectator(url_for, origin_for, source=address(2, index), **kw)


async def many_games(stack: Stack, opts: argparse.Namespace) -> dict[str, Any]:
    ports = stack.ports
    loop = asyncio.get_running_loop()
    games = await loop.run_in_executor(None, create_games, opts.games, "load")
    duos = await connect_clients(ports, games)
    stop = asyncio.Event()
    sent: list[dict[int, float]] = [{} for _ in duos]
    received: list[dict[int, float]] = [{} for _ in duos]
    readies = []
    watchers = []
    for i, duo in enumerate(duos):
        for seat in (0, 1):
            ready = asyncio.Event()
            readies.append(ready)
            sock = duo.socket(seat, ports, 20_000 + 2 * i + seat)
            watchers.append(asyncio.create_task(sock.run(stop, ready)))

        def on_push(version: int, _: float, i: int = i) -> None:
            received[i][version] = time.perf_counter()

        spectator = spectator_for(ports, duo.public_id, i, on_push=on_push)
        ready = asyncio.Event()
        readies.append(ready)
        watchers.append(asyncio.create_task(spectator.run(stop, ready)))
        if len(readies) >= 60:  # people arrive a few dozen at a time
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), opts.ready)
            readies = []
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), opts.ready)
    floor = await measure_floor(ports)

    interval = opts.games / opts.rate
    warmup = opts.warmup
    # For a profiler to start on (py-spy record --pid <a Daphne>).
    print(f"[load {time.strftime('%H:%M:%S')}] moves begin", file=sys.stderr, flush=True)
    began = time.perf_counter()
    end = began + warmup + opts.seconds
    counted_from = began + warmup
    applied_in_window = [0]

    async def drive(i: int, duo: Duo) -> None:
        await asyncio.sleep(random.random() * interval)
        next_at = time.perf_counter()
        while time.perf_counter() < end:
            start = time.perf_counter()
            applied = await duo.move(sent[i])
            if applied is None:
                return
            if start >= counted_from and applied:
                applied_in_window[0] += 1
            next_at = max(next_at + interval, time.perf_counter() - interval)
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

    under_load: list[float] = []
    page_failures = [0]

    async def sample_page() -> None:
        # The same anonymous page, now and then during the load.
        client = HttpClient(ports, source="127.9.0.2")
        await asyncio.sleep(warmup)
        while time.perf_counter() < end:
            start = time.perf_counter()
            try:
                await client.request("GET", "/")
            except ConnectionFailed:  # an overloaded site: the page is late, not the run
                page_failures[0] += 1
                continue
            under_load.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.5)
        await client.close()

    # Every process's CPU over the counted window (bench/cpu.py).
    meter = stack.cpu_meter()

    counted: dict[str, Any] = {}

    spies: list[Any] = []

    async def start_meter() -> None:
        await asyncio.sleep(max(0.0, counted_from - time.perf_counter()))
        meter.start()
        counted["before"] = stack.counters()
        if opts.py_spy:
            spies.extend(profile(stack, opts.py_spy, opts.seconds))

    await asyncio.gather(start_meter(), sample_page(), *(drive(i, d) for i, d in enumerate(duos)))
    window = time.perf_counter() - counted_from
    cpu_ms = meter.stop()
    counts = stack.count_deltas(counted["before"], applied_in_window[0])
    profiles = await loop.run_in_executor(None, summarize_profiles, spies)
    harness_cpu = cpu_ms.get("harness", 0.0) / 1000
    await asyncio.sleep(1)
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    latencies = []
    missing = 0
    for i in range(len(duos)):
        for version, t in sent[i].items():
            if t < counted_from:
                continue
            if version in received[i]:
                latencies.append((received[i][version] - t) * 1000)
            else:
                missing += 1
    failures: dict[str, int] = {}
    for duo in duos:
        for k, v in duo.failures.items():
            failures[k] = failures.get(k, 0) + v
        for client in duo.clients:
            await client.close()
    healthz = await measure_healthz(stack, opts.healthz_requests, opts.healthz_clients)
    moves = applied_in_window[0]
    per_move = per_unit(cpu_ms, moves)
    page = floor["page_p50_ms"]
    push = summary(latencies)
    return {
        # The CPU of one applied move over every process of the stack (not
        # the harness), read from /proc, and that of one /healthz in the
        # same run: the ratio travels between machines.
        "cpu_ms_per_move": per_move["total"],
        "healthz_cpu_ms": healthz["cpu_ms"],
        "cpu_per_move_in_healthz": (
            round(per_move["total"] / healthz["cpu_ms"], 1) if healthz["cpu_ms"] else None
        ),
        "cpu_ms_per_move_by_kind": per_move["by_kind"],
        # Cores busy on average over the window, by kind.
        "cpu_cores_by_kind": {k: round(ms / 1000 / window, 2) for k, ms in cpu_ms.items()},
        "healthz": healthz,
        # Counts per applied move over the same window (bench/stack.py counters).
        "counts_per_move": counts,
        **({"profiles": profiles} if profiles else {}),
        "games": len(duos),
        "offered_actions_per_second": opts.rate,
        "seconds": round(window, 1),
        "actions_per_second": round(applied_in_window[0] / window, 1),
        "post_ms": summary([ms for d in duos for t, ms in d.post_ms if t >= counted_from]),
        "push_ms": push,
        "push_vs_floor": {k: ratio(v, page) for k, v in push.items()},
        "pushes_missing": missing,
        "refused_or_failed_posts": failures,
        "games_finished": sum(d.finished for d in duos),
        "region_gets": sum(d.gets for d in duos),
        "seat_frames": sum(d.frames for d in duos),
        "seat_frames_with_panel": sum(d.socket_panels for d in duos),
        "harness_cpu_share": round(harness_cpu / window, 2),
        "floor": floor,
        "page_ms_during_load": summary(under_load),
        "page_failures_during_load": page_failures[0],
    }


def profile(stack: Stack, folder: Path, seconds: float) -> list[tuple[Any, Path]]:
    """py-spy on Daphne #0 and Celery worker #0 (with its pool) for the
    counted window: raw profiles in ``folder`` (bench/spy.py)."""
    folder.mkdir(parents=True, exist_ok=True)
    started = []
    for name, children in (("daphne0", False), ("worker0", True)):
        out = folder / f"{name}.txt"
        started.append((spy.record(stack.procs[name].pid, out, seconds, children), out))
    return started


def summarize_profiles(spies: list[tuple[Any, Path]]) -> list[str]:
    """Wait for the profilers, write each summary beside its raw profile."""
    written = []
    for process, out in spies:
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if out.exists():
            text = out.with_suffix(".summary.txt")
            text.write_text(spy.summary(out) + "\n")
            written.append(str(text))
    return written


async def measure_healthz(stack: Stack, requests: int, clients: int) -> dict[str, Any]:
    """The CPU of one GET /healthz: ``requests`` of them from ``clients``
    kept-alive connections straight to the first Daphne (no nginx), its
    /proc CPU and that of the PostgreSQL backends and Redis, less what they
    spend idle over as long (measured just before), divided by the requests."""
    port = stack.daphne_ports[0]
    conns = [HttpClient([port], source=f"127.9.1.{i + 1}") for i in range(clients)]
    statuses: dict[int, int] = {}

    async def one(client: HttpClient, count: int) -> None:
        for _ in range(count):
            answer = await client.request("GET", "/healthz")
            statuses[answer.status] = statuses.get(answer.status, 0) + 1

    await asyncio.gather(*(one(c, 2) for c in conns))  # connections and first answers apart
    # The games' sockets have just closed, and a backlog may remain: what
    # Daphne still does for them is not idle. Wait (30 s at most) until it is.
    waited = await until_quiet(stack.procs["daphne0"].pid)
    idle_meter = stack.cpu_meter(only=["daphne0"]).start()
    await asyncio.sleep(2.0)
    idle = idle_meter.stop()
    statuses.clear()
    meter = stack.cpu_meter(only=["daphne0"]).start()
    began = time.perf_counter()
    shares = [requests // clients + (i < requests % clients) for i in range(clients)]
    await asyncio.gather(*(one(c, n) for c, n in zip(conns, shares, strict=True)))
    seconds = time.perf_counter() - began
    busy = meter.stop()
    for client in conns:
        await client.close()
    by_kind = {
        kind: round(
            max(0.0, ms - idle.get(kind, 0.0) / idle_meter.seconds * meter.seconds) / requests, 2
        )
        for kind, ms in busy.items()
        if kind in ("daphne", "postgres", "redis")
    }
    return {
        "cpu_ms": round(sum(by_kind.values()), 2),
        "cpu_ms_by_kind": by_kind,
        "requests": requests,
        "clients": clients,
        "requests_per_second": round(requests / seconds, 1),
        "statuses": {str(k): v for k, v in statuses.items()},
        "idle_cpu_ms_per_second": {
            k: round(v / idle_meter.seconds, 1) for k, v in idle.items() if k in by_kind
        },
        "waited_for_quiet_seconds": waited,
    }


async def until_quiet(pid: int, most: float = 30.0, busy_ms_per_s: float = 30.0) -> float:
    """Wait until ``pid`` spends less than ``busy_ms_per_s`` of CPU in a
    second (or ``most`` seconds went by); how long it took."""
    began = time.perf_counter()
    while time.perf_counter() - began < most:
        before = pid_cpu_ms(pid) or 0.0
        await asyncio.sleep(1.0)
        if (pid_cpu_ms(pid) or 0.0) - before < busy_ms_per_s:
            break
    return round(time.perf_counter() - began, 1)


async def crowd(stack: Stack, opts: argparse.Namespace) -> dict[str, Any]:
    ports = stack.ports
    loop = asyncio.get_running_loop()
    [(public_id, keys)] = await loop.run_in_executor(None, create_games, 1, "crowd")
    [duo] = await connect_clients(ports, [(public_id, keys)])
    stop = asyncio.Event()
    arrivals: dict[int, list[float]] = {}
    seat_tasks = []
    for seat in (0, 1):
        ready = asyncio.Event()
        seat_tasks.append(
            asyncio.create_task(duo.socket(seat, ports, 30_000 + seat).run(stop, ready))
        )
        await ready.wait()

    def on_push(version: int, arrival: float) -> None:
        arrivals.setdefault(version, []).append(arrival)

    # Lean sockets (bench/watchers.py): the harness shares the two cores
    # with the site, and a page-like client per socket measured its own
    # queue as much as the site's.
    path = f"/ws/games/{public_id}/"
    watchers: list[Watcher] = []
    for start in range(0, opts.spectators, 100):
        batch = range(start, min(opts.spectators, start + 100))
        joined = await asyncio.gather(
            *(
                watch("127.0.0.1", ports[i % len(ports)], path, on_push, address(2, 10_000 + i))
                for i in batch
            ),
            return_exceptions=True,
        )
        batch_watchers = [w for w in joined if isinstance(w, Watcher)]
        watchers += batch_watchers
        # The crowd goes on with the sockets whose snapshot is in after 20 s.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(w.ready.wait() for w in batch_watchers)), 20)
    await asyncio.sleep(3)  # the presence news of the arrivals settle
    connected = sum(1 for w in watchers if w.ready.is_set() and not w.closed.is_set())
    floor = await measure_floor(ports)
    sent: dict[int, float] = {}
    lasts, firsts, missing = [], [], 0
    give_up = time.perf_counter() + opts.crowd_seconds
    for _ in range(opts.moves):
        if time.perf_counter() > give_up:
            break
        applied = await duo.move(sent)
        if applied is None:
            break
        if not applied:
            continue
        version = max(sent)
        deadline = time.perf_counter() + 5
        while len(arrivals.get(version, ())) < connected and time.perf_counter() < deadline:
            await asyncio.sleep(0.001)
        got = arrivals.get(version, [])
        missing += max(0, connected - len(got))
        if got:
            lasts.append((max(got) - sent[version]) * 1000)
            firsts.append((min(got) - sent[version]) * 1000)
        await asyncio.sleep(opts.pause)
    dropped = sum(1 for w in watchers if w.closed.is_set())
    stop.set()
    for watcher in watchers:
        watcher.close()
    await asyncio.gather(*seat_tasks, return_exceptions=True)
    for client in duo.clients:
        await client.close()
    page = floor["page_p50_ms"]
    last = summary(lasts)
    return {
        "spectators": opts.spectators,
        "spectators_connected": connected,
        "moves": len(lasts),
        "last_spectator_ms": last,
        "last_spectator_vs_floor": {k: ratio(v, page) for k, v in last.items()},
        "first_spectator_ms": summary(firsts),
        "missing": missing,
        "closed_during_the_run": dropped,
        "floor": floor,
    }


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "p50": round(statistics.median(values), 2),
        "p99": round(percentile(values, 99), 2),
        "max": round(max(values), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=300.0, help="moves a second offered")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--pause", type=float, default=0.3)
    parser.add_argument(
        "--crowd-seconds", type=float, default=120.0, help="at most this long for the moves"
    )
    parser.add_argument("--skip-crowd", action="store_true")
    parser.add_argument(
        "--ready",
        type=float,
        default=300.0,
        help="seconds for each batch of sockets to hold their snapshot (a crowded machine is slow)",
    )
    parser.add_argument(
        "--healthz-requests", type=int, default=800, help="for healthz_cpu_ms, after the games"
    )
    parser.add_argument("--healthz-clients", type=int, default=8)
    parser.add_argument(
        "--py-spy",
        type=Path,
        metavar="DIR",
        help="profile Daphne #0 and worker #0 over the counted window (raw files and summaries)",
    )
    parser.add_argument("--skip-games", action="store_true")
    parser.add_argument("--no-nginx", action="store_true")
    parser.add_argument(
        "--http", choices=sorted(HTTP_SERVERS), default="daphne",
        help="what serves plain HTTP; the Daphnes keep the WebSockets either way",
    )  # fmt: skip
    parser.add_argument("--http-servers", type=int, default=2, help="with --http uvicorn")
    parser.add_argument("--daphnes", type=int, default=2)
    parser.add_argument("--keep-logs", action="store_true")
    opts = parser.parse_args()

    stack = Stack(
        name="load",
        use_nginx=not opts.no_nginx,
        http=opts.http,
        http_servers=opts.http_servers,
        daphnes=opts.daphnes,
        # Far beyond a person's pace: the action limit is raised out of the
        # way, but still counted, as in production.
        extra_env={"RATE_LIMIT_ACTION": "1000000/10s/user,1000000/10s/ip"},
    )
    result: dict[str, Any] = {}
    try:
        stack.start()
        os.environ.update({k: v for k, v in stack.env.items() if k != "PYTHONUNBUFFERED"})
        os.environ["PGAPPNAME"] = HARNESS_APP_NAME
        import django

        django.setup()
        phases = [
            ("many_games", many_games, opts.skip_games),
            ("one_game_crowd", crowd, opts.skip_crowd),
        ]
        for name, phase, skip in phases:
            if skip:
                continue
            try:
                result[name] = asyncio.run(phase(stack, opts))
            except Exception as exc:
                traceback.print_exc()
                result[name] = {"failed": repr(exc)}
            print(json.dumps({name: result[name]}), file=sys.stderr, flush=True)
        result["nginx"] = stack.nginx
        result["daphnes"] = stack.daphnes
        result["http"] = stack.http
        if stack.http_ports:
            result["http_servers"] = len(stack.http_ports)
        result["machine"] = machine()
        print(json.dumps(result, indent=2), flush=True)
    finally:
        stack.stop()
        stack.drop()
        # A failed phase keeps the processes' logs, to read why.
        failed = any(isinstance(r, dict) and "failed" in r for r in result.values())
        if failed:
            print(f"logs kept in {stack.tmp}", file=sys.stderr, flush=True)
        stack.cleanup(keep_logs=opts.keep_logs or failed)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(BASE_DIR))
    sys.exit(main())
