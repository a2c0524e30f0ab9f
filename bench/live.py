"""How fast a move reaches the people watching it (`make bench-live`).

Starts one daphne against PostgreSQL and Redis on loopback, seats two players
in a public game, opens 50 anonymous spectator sockets, then posts moves over
HTTP as the player to move. For each move it records, per spectator, the time
from just before the POST until that spectator holds every region of the new
version (one push carries all of them). Prints JSON.

    python bench/live.py [--spectators 50] [--moves 60] [--pause 0.05]

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/monopoly_bench_live,
created and migrated if missing) and REDIS_URL (default
redis://127.0.0.1:6379/0) choose the services; keys use their own prefix.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import platform
import re
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from typing import Any
from urllib.parse import urlencode

from benchlib import (
    BASE_DIR,
    cpu_calibration_ms,
    ensure_database,
    floor_report,
    page_floor_ms,
    percentile,
    ratio,
)
from cpu import pid_cpu_ms

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/monopoly_bench_live"
FRAME = re.compile(r"^<!--(push|snapshot|live)(?: (\d+)(?: after \d+)?)?-->")


def bench_env() -> dict[str, str]:
    """The environment for the benchmark's daphne. Two players posting
    moves back to back go far beyond a person's pace: the action limit is
    raised out of the way, but still counted, as in production."""
    return {"RATE_LIMIT_ACTION": "1000000/10s/user,1000000/10s/ip", **os.environ}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def form_for(action: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": action.kind}
    if action.square >= 0:
        data["square"] = action.square
    if action.target >= 0:
        data["target"] = action.target
    if action.amount > 0:
        data["amount"] = action.amount
    return data


def next_move(game: Any) -> tuple[Any, dict[str, Any]]:
    """The player to move and a plain (non-trade) action, as the heuristic bot chooses."""
    from games import engine

    state = engine.from_dict(game.state)
    player = engine.next_actor(state)
    action = engine.make_bot("heuristic", seed=game.version).act(state, player)
    if action.terms is not None:
        action = next(a for a in engine.legal_actions(state, player) if a.terms is None)
    return player, form_for(action)


async def spectate(
    url: str, origin: str, ready: asyncio.Event, inbox: dict[int, dict[int, float]], index: int
) -> None:
    import websockets

    async with websockets.connect(url, origin=origin, max_size=None) as socket_:
        ready.set()
        async for message in socket_:
            match = FRAME.match(message)
            # A spectator's push holds every region of its version at once.
            if match and match.group(1) == "push":
                inbox.setdefault(int(match.group(2)), {})[index] = time.perf_counter()


def set_up() -> tuple[Any, list[str]]:
    """Migrate, then a started public game of two players and their sessions."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from games import services

    call_command("migrate", verbosity=0)
    tag = secrets.token_hex(3)
    users = [
        get_user_model().objects.create_user(f"bench-{tag}-{i}", f"b-{tag}-{i}@example.com", "x")
        for i in range(2)
    ]
    game = services.create_seated_game(
        humans=users, bots=[], start=True, turn_seconds=3 * 24 * 3600
    )
    cookies = []
    for user in users:
        client = Client()
        client.force_login(user)
        cookies.append(str(client.cookies["sessionid"].value))
    return game, cookies


async def main(args: argparse.Namespace, game: Any, cookies: list[str]) -> dict[str, Any]:
    from asgiref.sync import sync_to_async

    from games.models import Game

    csrf = secrets.token_hex(16)

    port = free_port()
    log = open(BASE_DIR / ".run" / "bench-live-daphne.log", "w")  # noqa: SIM115
    daphne = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port),
         "monopoly_site.asgi:application"],
        cwd=BASE_DIR, env=bench_env(), stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        origin = f"http://127.0.0.1:{port}"
        url = f"ws://127.0.0.1:{port}/ws/games/{game.public_id}/"
        inbox: dict[int, dict[int, float]] = {}
        readies = [asyncio.Event() for _ in range(args.spectators)]
        tasks = [
            asyncio.create_task(spectate(url, origin, readies[i], inbox, i))
            for i in range(args.spectators)
        ]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
        await asyncio.sleep(2)  # let the presence news of 50 arrivals settle

        conn = http.client.HTTPConnection("127.0.0.1", port)

        async def anonymous_page() -> None:
            # The floor: the same client and connection, no session.
            await asyncio.to_thread(conn.request, "GET", "/")
            answer = await asyncio.to_thread(conn.getresponse)
            answer.read()

        async def healthz() -> None:
            await asyncio.to_thread(conn.request, "GET", "/healthz")
            answer = await asyncio.to_thread(conn.getresponse)
            answer.read()

        await anonymous_page()
        floor = floor_report(await page_floor_ms(anonymous_page, 50), cpu_calibration_ms())
        # The cheapest request that still reads PostgreSQL and Redis: a push
        # is read against it (a ratio that travels between machines).
        await healthz()
        healthz_p50 = await page_floor_ms(healthz, 50)
        daphne_cpu_before = pid_cpu_ms(daphne.pid) or 0.0
        latencies: list[float] = []
        post_times: list[float] = []
        firsts: list[float] = []  # until the first spectator has it: the fan-out excluded
        lasts: list[float] = []  # per move, until the last spectator has it
        missing = 0
        for _ in range(args.moves):
            await sync_to_async(game.refresh_from_db)()
            if game.status != Game.Status.ACTIVE:
                break
            player, form = next_move(game)
            version = game.version + 1
            body = urlencode({**form, "expected_version": game.version})
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"sessionid={cookies[player]}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                # As from the TLS proxy a production site sits behind.
                "X-Forwarded-Proto": "https",
                "Origin": f"https://127.0.0.1:{port}",
            }
            start = time.perf_counter()
            await asyncio.to_thread(
                conn.request, "POST", f"/games/{game.public_id}/act", body, headers
            )
            response = await asyncio.to_thread(conn.getresponse)
            answer = response.read()
            post_times.append((time.perf_counter() - start) * 1000)
            if response.status != 200:
                raise RuntimeError(f"POST answered {response.status} for {form}")
            # The version the move ended at: a standing order it brought into
            # play (rent claimed automatically) commits its own version after
            # it, and the push carries the last one.
            pushed = re.match(rb"<!--push (\d+)(?: after \d+)?-->", answer)
            if pushed:
                version = int(pushed.group(1))
            deadline = time.perf_counter() + 5
            while len(inbox.get(version, {})) < args.spectators and time.perf_counter() < deadline:
                await asyncio.sleep(0.0005)
            arrived = inbox.get(version, {})
            missing += args.spectators - len(arrived)
            latencies += [(t - start) * 1000 for t in arrived.values()]
            if arrived:
                firsts.append((min(arrived.values()) - start) * 1000)
                lasts.append((max(arrived.values()) - start) * 1000)
            await asyncio.sleep(args.pause)
        daphne_cpu = (pid_cpu_ms(daphne.pid) or 0.0) - daphne_cpu_before
        conn.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        daphne.terminate()
        daphne.wait(timeout=20)
        log.close()
    push = {
        "p50": round(statistics.median(latencies), 2),
        "p90": round(percentile(latencies, 90), 2),
        "p99": round(percentile(latencies, 99), 2),
        "max": round(max(latencies), 2),
    }
    return {
        "spectators": args.spectators,
        "moves": len(post_times),
        "samples": len(latencies),
        "missing": missing,
        "push_ms": push,
        # Each latency read against the floor measured in this run: the
        # p50 of an anonymous page on the same Daphne and client.
        "push_vs_floor": {k: ratio(v, floor["page_p50_ms"]) for k, v in push.items()},
        "floor": floor,
        "healthz_p50_ms": healthz_p50,
        "push_p50_in_healthz": ratio(push["p50"], healthz_p50),
        # Daphne's CPU (/proc) per move over the moves, the fan-out to every
        # spectator included (and the pauses' idle work: --pause).
        "daphne_cpu_ms_per_move": round(daphne_cpu / max(1, len(post_times)), 2),
        "first_spectator_ms": {
            "p50": round(statistics.median(firsts), 2),
            "p99": round(percentile(firsts, 99), 2),
        },
        "post_ms": {
            "p50": round(statistics.median(post_times), 2),
            "p99": round(percentile(post_times, 99), 2),
        },
        # The moves whose last spectator waited longest (p99 is about one move):
        # move number (from 1) and milliseconds, slowest first.
        "slowest_moves": [
            [i + 1, round(ms, 1)] for i, ms in sorted(enumerate(lasts), key=lambda m: -m[1])[:5]
        ],
        # The first moves after Daphne started, likewise (the last spectator's ms).
        "first_moves": [round(ms, 1) for ms in lasts[:5]],
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
        "python": platform.python_version(),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--pause", type=float, default=0.05)
    args = parser.parse_args()
    sys.path.insert(0, str(BASE_DIR))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "monopoly_site.settings")
    os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    os.environ.setdefault("REDIS_PREFIX", f"monopoly-bench-{os.getpid()}")
    # Production settings (DEBUG off), as if behind a TLS proxy.
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    if os.environ["DATABASE_URL"].startswith("postgres"):
        ensure_database(os.environ["DATABASE_URL"])
    (BASE_DIR / ".run").mkdir(exist_ok=True)
    game, cookies = set_up()
    print(json.dumps(asyncio.run(main(args, game, cookies)), indent=2))
