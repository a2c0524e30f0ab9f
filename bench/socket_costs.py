"""What each open game socket costs Redis and Daphne, per move and per idle
second (issue #35: presence and heartbeats off the move path).

Starts its own redis-server (so that INFO commandstats counts only this
run) and one Daphne, seats two players in a public game with a socket each,
opens ``--spectators`` anonymous sockets, then:

1. idle: ``--idle`` seconds with no move (the heartbeats' and presence's
   own cost): Redis commands and Daphne CPU (utime+stime from /proc) per
   second and per socket;
2. moves: ``--moves`` moves posted over HTTP as the player to move, each
   waited for until every spectator holds it: Redis commands and Daphne CPU
   per move (the idle rate over the window taken off too).

Counts travel between machines; the CPU figures only under the same load.

    python bench/socket_costs.py [--spectators 50] [--moves 60] [--idle 25] [--games 0]

``--games G`` adds G games of two players, with both seats' sockets and one
spectator's open, as bench-load plays them (counted in the idle window).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from benchlib import ensure_database, machine

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/monopoly_bench_sockets"
FRAME = re.compile(r"^<!--(push|snapshot|live)(?: (\d+)(?: after \d+)?)?-->")


def cpu_ms(pid: int) -> float:
    """utime+stime of ``pid`` and its threads, in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    return ticks * 1000 / os.sysconf("SC_CLK_TCK")


def commandstats(port: int) -> dict[str, int]:
    out = subprocess.run(
        ["redis-cli", "-p", str(port), "INFO", "commandstats"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    stats = {}
    for line in out.splitlines():
        if line.startswith("cmdstat_"):
            name, rest = line[len("cmdstat_") :].split(":", 1)
            stats[name] = int(rest.split(",")[0].split("=")[1])
    return stats


def delta(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    out = {k: v - before.get(k, 0) for k, v in after.items()}
    out.pop("info", None)  # our own INFO calls
    return {k: v for k, v in sorted(out.items(), key=lambda kv: -kv[1]) if v}


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def listen(
    url: str,
    origin: str,
    ready: asyncio.Event,
    inbox: dict[int, set[int]],
    index: int,
    headers: dict[str, str] | None = None,
) -> None:
    import websockets

    while True:  # a socket closed before its snapshot (try again later) comes back
        with contextlib.suppress(websockets.ConnectionClosed):
            await _listen(url, origin, ready, inbox, index, headers)
        if ready.is_set():
            return
        await asyncio.sleep(0.5)


async def _listen(
    url: str,
    origin: str,
    ready: asyncio.Event,
    inbox: dict[int, set[int]],
    index: int,
    headers: dict[str, str] | None,
) -> None:
    import websockets

    async with websockets.connect(
        url, origin=origin, max_size=None, ping_interval=None, additional_headers=headers
    ) as socket_:
        async for message in socket_:
            match = FRAME.match(message)
            if match and match.group(1) == "push":
                inbox.setdefault(int(match.group(2)), set()).add(index)
            elif match and match.group(1) == "snapshot":
                ready.set()  # connected, and its snapshot sent: the connect is done
            elif 'id="presence"' in message:
                LAST_PRESENCE[0] = time.monotonic()


LAST_PRESENCE = [0.0]  # when a socket was last told who is here


async def main(args: argparse.Namespace, redis_port: int) -> dict[str, Any]:
    import importlib.util

    from asgiref.sync import sync_to_async

    # bench/live.py, under another name: ``live`` is the site's app.
    spec = importlib.util.spec_from_file_location("bench_live", Path(__file__).with_name("live.py"))
    assert spec is not None and spec.loader is not None
    bench_live = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_live)
    bench_env, next_move, set_up = bench_live.bench_env, bench_live.next_move, bench_live.set_up

    game, cookies = await sync_to_async(set_up)()
    others: list[tuple[str, list[str]]] = []
    if args.games:
        # More games as bench-load plays them: two seats' sockets and a spectator's each.
        spec = importlib.util.spec_from_file_location(
            "bench_load", Path(__file__).with_name("load.py")
        )
        assert spec is not None and spec.loader is not None
        bench_load = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench_load)
        others = await sync_to_async(bench_load.create_games)(args.games, secrets.token_hex(3))
    csrf = secrets.token_hex(16)
    port = free_port()
    (BASE_DIR / ".run").mkdir(exist_ok=True)
    log = open(BASE_DIR / ".run" / "bench-sockets-daphne.log", "w")  # noqa: SIM115
    daphne = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port),
         "monopoly_site.asgi:application"],
        cwd=BASE_DIR, env=bench_env(), stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    tasks: list[asyncio.Task[None]] = []
    try:
        for _ in range(300):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                conn.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        origin = f"http://127.0.0.1:{port}"
        url = f"ws://127.0.0.1:{port}/ws/games/{game.public_id}/"
        inbox: dict[int, set[int]] = {}
        total = args.spectators + 2
        readies = [asyncio.Event() for _ in range(total)]
        for i in range(args.spectators):
            tasks.append(asyncio.create_task(listen(url, origin, readies[i], inbox, i)))
            if i % 10 == 9:  # in tens, as a crowd of a thousand is not the point here
                await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies[: i + 1])), 120)
        for seat in range(2):
            cookie = {"Cookie": f"sessionid={cookies[seat]}"}
            index = args.spectators + seat
            tasks.append(
                asyncio.create_task(listen(url, origin, readies[index], inbox, index, cookie))
            )
        for number, (public_id, keys) in enumerate(others):
            other = f"ws://127.0.0.1:{port}/ws/games/{public_id}/"
            for seat, key in enumerate([*keys, None]):
                readies.append(asyncio.Event())
                head = {"Cookie": f"sessionid={key}"} if key else None
                index = 100_000 + 3 * number + seat  # not among the main game's
                tasks.append(
                    asyncio.create_task(listen(other, origin, readies[-1], {}, index, head))
                )
            if number % 5 == 4:
                await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies[total:])), 120)
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        total_sockets = len(readies)
        # The arrivals' presence news settle: none for 3 s.
        while time.monotonic() - LAST_PRESENCE[0] < 3:
            await asyncio.sleep(0.5)

        stats0, cpu0, t0 = commandstats(redis_port), cpu_ms(daphne.pid), time.monotonic()
        await asyncio.sleep(args.idle)
        stats1, cpu1, t1 = commandstats(redis_port), cpu_ms(daphne.pid), time.monotonic()
        idle_seconds = t1 - t0
        idle_cmds = delta(stats1, stats0)
        idle_rate = sum(idle_cmds.values()) / idle_seconds
        idle_cpu_rate = (cpu1 - cpu0) / idle_seconds

        conn = http.client.HTTPConnection("127.0.0.1", port)
        moves = 0
        missing = 0
        stats2, cpu2, t2 = commandstats(redis_port), cpu_ms(daphne.pid), time.monotonic()
        from games.models import Game

        for _ in range(args.moves):
            await sync_to_async(game.refresh_from_db)()
            if game.status != Game.Status.ACTIVE:
                break
            player, form = next_move(game)
            body = urlencode({**form, "expected_version": game.version})
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"sessionid={cookies[player]}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                "X-Forwarded-Proto": "https",
                "Origin": f"https://127.0.0.1:{port}",
            }
            await asyncio.to_thread(
                conn.request, "POST", f"/games/{game.public_id}/act", body, headers
            )
            response = await asyncio.to_thread(conn.getresponse)
            answer = response.read()
            if response.status != 200:
                raise RuntimeError(f"POST answered {response.status} for {form}")
            pushed = re.match(rb"<!--push (\d+)(?: after \d+)?-->", answer)
            version = int(pushed.group(1)) if pushed else game.version + 1
            deadline = time.perf_counter() + 5
            while len(inbox.get(version, ())) < total and time.perf_counter() < deadline:
                await asyncio.sleep(0.001)
            missing += total - len(inbox.get(version, ()))
            moves += 1
        stats3, cpu3, t3 = commandstats(redis_port), cpu_ms(daphne.pid), time.monotonic()
        conn.close()
        window = t3 - t2
        move_cmds = delta(stats3, stats2)
        moves = max(moves, 1)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        daphne.terminate()
        daphne.wait(timeout=20)
        log.close()
    return {
        "sockets": total_sockets,
        "games": 1 + len(others),
        "idle": {
            "seconds": round(idle_seconds, 1),
            "redis_commands_per_s": round(idle_rate, 2),
            "redis_commands_per_socket_minute": round(idle_rate * 60 / total_sockets, 2),
            "daphne_cpu_ms_per_s": round(idle_cpu_rate, 2),
            "commands": idle_cmds,
        },
        "moves": {
            "moves": moves,
            "missing_pushes": missing,
            "seconds": round(window, 2),
            "redis_commands_per_move": round(sum(move_cmds.values()) / moves, 2),
            "redis_commands_per_move_less_idle": round(
                (sum(move_cmds.values()) - idle_rate * window) / moves, 2
            ),
            "daphne_cpu_ms_per_move": round((cpu3 - cpu2) / moves, 2),
            "daphne_cpu_ms_per_move_less_idle": round(
                (cpu3 - cpu2 - idle_cpu_rate * window) / moves, 2
            ),
            "commands_per_move": {k: round(v / moves, 2) for k, v in move_cmds.items()},
        },
        "machine": machine(),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--idle", type=float, default=25.0)
    parser.add_argument(
        "--games", type=int, default=0, help="more games, three sockets each (idle window)"
    )
    args = parser.parse_args()
    redis_port = free_port()
    print(f"redis on port {redis_port}", file=sys.stderr)
    redis = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(redis_port), "--save", "",
         "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(100):
            if subprocess.run(["redis-cli", "-p", str(redis_port), "PING"],
                              capture_output=True).returncode == 0:  # fmt: skip
                break
            time.sleep(0.05)
        os.environ["DJANGO_SETTINGS_MODULE"] = "monopoly_site.settings"
        os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        os.environ.setdefault("REDIS_PREFIX", f"monopoly-bench-{os.getpid()}")
        os.environ.setdefault("DEBUG", "false")
        os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
        if os.environ["DATABASE_URL"].startswith("postgres"):
            ensure_database(os.environ["DATABASE_URL"])
        print(json.dumps(asyncio.run(main(args, redis_port)), indent=2))
    finally:
        redis.terminate()
        redis.wait(timeout=10)
