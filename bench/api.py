"""API actions per second, and the time from POST to answer (`make bench-api`).

Starts `make run`'s stack on a database and a Redis of its own (one Daphne,
one Celery worker of two processes and beat, PostgreSQL on loopback; bench/stack.py), then N
clients each play their own two-seat game against a site bot through the
public API, as ``examples/api_bot.py`` does: create the game, add a heuristic
bot, start, follow the game's NDJSON stream and post the policy's actions
(``expected_version``, an ``Idempotency-Key``). A client whose game ends
starts another, until it has posted its share of actions. The games' site
bots are instant (``bot_speed``), so the pace is the site's: each answer
already holds the client's next decision. Prints JSON:
actions per second over the whole run and the p50/p99 of POST to answer.
With ``--duel``, the latency of a single action: two API players take turns
in one game, nothing else moving (no site bot, no other client).

    python bench/api.py [--clients 10] [--actions 200] [--duel]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import threading
import time

from benchlib import BASE_DIR, machine, percentile
from cpu import per_unit
from stack import HARNESS_APP_NAME, Stack


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.post_ms: list[float] = []
        self.statuses: dict[int, int] = {}
        self.games = 0
        self.errors: list[str] = []

    def record(self, ms: float, status: int) -> None:
        with self.lock:
            self.post_ms.append(ms)
            self.statuses[status] = self.statuses.get(status, 0) + 1


def people(count: int) -> list[str]:
    """``count`` users with a play and read token each; their tokens."""
    from accounts.models import User
    from api import tokens

    out = []
    for i in range(count):
        user = User.objects.create_user(f"apibench{i}", f"apibench{i}@example.com", None)
        out.append(tokens.issue(user, scopes=["play", "read"], name="bench-api")[1])
    return out


def client(url: str, token: str, actions: int, tally: Tally) -> None:
    from examples import api_bot

    posted = 0
    with api_bot.connect(url, token) as api:
        while posted < actions:
            view = api_bot.create_game(api, seats=2, bot_speed="instant")
            api_bot.add_bot_and_start(api, view["id"], "heuristic")
            with tally.lock:
                tally.games += 1
            known = 0
            for line in api_bot.follow(api, view["id"], since=0, log=tally.errors.append):
                if line["type"] == "end" or posted >= actions:
                    break
                if line["type"] != "state" or line["status"] != "active":
                    continue
                if line["version"] < known:
                    continue  # our own answers are ahead of the stream: acting on it is a 409
                view = line
                while posted < actions and (action := api_bot.choose(view)) is not None:
                    started = time.perf_counter()
                    status, answer = api_bot.act(api, view["id"], action, view["version"])
                    tally.record((time.perf_counter() - started) * 1000, status)
                    posted += 1
                    if status == 200:
                        # The answer has no decisions: those of the older view
                        # would be stale. The stream's state of this version has them.
                        view = {**view, **answer, "decisions": []}
                        known = view["version"]
                    else:
                        view = api_bot.checked(api.get(f"/games/{view['id']}"))


def duel(url: str, tokens: list[str], actions: int, tally: Tally) -> None:
    """One action at a time with nothing else moving: two API players take
    turns in one game (no site bot, no other client), each reading the game
    before it acts; only the POSTs are timed."""
    from examples import api_bot

    first, second = (api_bot.connect(url, token) for token in tokens[:2])
    posted = 0
    with first, second:
        while posted < actions:
            game = api_bot.create_game(first, seats=2)
            api_bot.checked(second.post(f"/games/{game['id']}/join", json={}))
            api_bot.checked(first.post(f"/games/{game['id']}/start"))
            with tally.lock:
                tally.games += 1
            while posted < actions:
                views = [
                    (c, api_bot.checked(c.get(f"/games/{game['id']}"))) for c in (first, second)
                ]
                if views[0][1]["status"] != "active":
                    break
                for api, view in views:
                    action = api_bot.choose(view) or next(
                        (a for a in view["legal_actions"] if a["kind"] not in api_bot.NEVER), None
                    )
                    if action is None:
                        continue
                    started = time.perf_counter()
                    status, _ = api_bot.act(api, game["id"], action, view["version"])
                    tally.record((time.perf_counter() - started) * 1000, status)
                    posted += 1
                    break


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--actions", type=int, default=200, help="per client")
    parser.add_argument("--keep-logs", action="store_true")
    parser.add_argument(
        "--duel",
        action="store_true",
        help="the latency of a single action: two API players in one game, nothing else moving",
    )
    opts = parser.parse_args()
    stack = Stack(
        name="benchapi",
        daphnes=1,
        workers=1,
        worker_concurrency=2,  # the Procfile's worker
        use_nginx=False,
        # Clients posting back to back go far beyond a person's pace: the
        # action limit is raised out of the way, but still counted.
        extra_env={
            "RATE_LIMIT_ACTION": "1000000/10s/user,1000000/10s/ip",
            # Games are created per account in the lobby's own count (issue 32).
            "RATE_LIMIT_CREATE": "1000000/1h/user,1000000/1h/ip",
            "RATE_LIMIT_JOIN": "1000000/10m/user,1000000/10m/ip",
            "API_RATE_LIMIT_READ": "1000000/10s/token",
            "API_RATE_LIMIT_WRITE": "1000000/10s/token",
        },
    )
    try:
        stack.start()
        os.environ.update({k: v for k, v in stack.env.items() if k != "PYTHONUNBUFFERED"})
        os.environ["PGAPPNAME"] = HARNESS_APP_NAME
        import django

        django.setup()
        logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise
        tokens = people(2 if opts.duel else opts.clients)
        url = f"http://127.0.0.1:{stack.ports[0]}"
        tally = Tally()
        threads = [
            threading.Thread(target=client, args=(url, token, opts.actions, tally), daemon=True)
            for token in tokens
        ]
        if opts.duel:
            threads = [threading.Thread(target=duel, args=(url, tokens, opts.actions, tally))]
        # Every process's CPU over the run (bench/cpu.py); the clients are
        # this process's threads ("harness").
        meter = stack.cpu_meter().start()
        counted = stack.counters()
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        cpu = per_unit(meter.stop(), len(tally.post_ms))
        counts = stack.count_deltas(counted, len(tally.post_ms))
        ms = tally.post_ms
        print(
            json.dumps(
                {
                    "mode": "duel" if opts.duel else "against site bots",
                    "clients": 1 if opts.duel else opts.clients,
                    "actions": len(ms),
                    "games": tally.games,
                    "seconds": round(seconds, 2),
                    "actions_per_s": round(len(ms) / seconds, 1),
                    "post_p50_ms": round(statistics.median(ms), 2) if ms else None,
                    "post_p99_ms": round(percentile(ms, 99), 2) if ms else None,
                    "statuses": tally.statuses,
                    "stream_reconnects": len(tally.errors),
                    # The stack's CPU (all its processes, not the clients) per
                    # action posted, the site bots' answers included.
                    "cpu_ms_per_action": cpu["total"],
                    "cpu_ms_per_action_by_kind": cpu["by_kind"],
                    "counts_per_action": counts,
                    "machine": machine(),
                }
            ),
            flush=True,
        )
        return 0 if len(ms) == (1 if opts.duel else opts.clients) * opts.actions else 1
    finally:
        stack.stop()
        stack.drop()
        stack.cleanup(keep_logs=opts.keep_logs)


if __name__ == "__main__":
    sys.path.insert(0, str(BASE_DIR))
    sys.exit(main())
