"""A probe, not a test (its name keeps it out of ``make test``): what one
action costs in process, through the views as a client posts it. Per action:
SQL statements (as Django logs them, BEGIN and COMMIT included), Redis round
trips (each command or pipeline sent; sync and asyncio clients) by command,
CPU time of the process and of the request's thread, and CPU per subscriber
hook. Three plays: the page's htmx form in a duel of two people, the page
against an instant site bot, and the API against an instant site bot. No
socket is open, so the page's answer is rendered by the view itself.

    .venv/bin/python -m monopoly_site.localservices test -- \
        tests/games/probe_request_cost.py -q -s -p no:randomly -W ignore

``PROBE_N`` actions a play (60); ``PROBE_VERBOSE=1``: statements by kind;
``PROBE_TRACE=1``: each statement and Redis command with its callers;
``PROBE_PROFILE=1``: a CPU-time cProfile per play in /tmp/request-probe-*.prof.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from contextlib import contextmanager
from typing import Any

import pytest
import redis.asyncio.connection as aconn
import redis.connection as sconn
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import engine
from games.models import Game, Seat

pytestmark = [pytest.mark.django_db(transaction=True)]

NAME = re.compile(rb"\*\d+\r\n\$\d+\r\n([A-Za-z]+)\r\n")


class RedisTally:
    def __init__(self) -> None:
        self.trips = 0
        self.names: Counter[str] = Counter()


_tally: RedisTally | None = None


def _note(command: Any) -> None:
    if _tally is None:
        return
    items = [command] if isinstance(command, (bytes, str)) else list(command)
    blob = b"".join(i if isinstance(i, bytes) else bytes(i) for i in items)
    _tally.trips += 1
    if os.environ.get("PROBE_TRACE"):
        import traceback

        frames = [
            f"{f.filename.split('wt-request/')[-1]}:{f.lineno}:{f.name}"
            for f in traceback.extract_stack()
            if "wt-request/" in f.filename
            and ".venv" not in f.filename
            and "probe_" not in f.filename
        ]
        print(
            "   REDIS",
            [m.group(1) for m in NAME.finditer(blob)][:6],
            "<-",
            " < ".join(reversed(frames[-4:])),
        )
    for m in NAME.finditer(blob):
        _tally.names[m.group(1).decode().upper()] += 1


_sync = sconn.AbstractConnection.send_packed_command
_async = aconn.AbstractConnection.send_packed_command


def _s(self: Any, command: Any, check_health: bool = True) -> Any:
    _note(command)
    return _sync(self, command, check_health)


async def _a(self: Any, command: Any, check_health: bool = True) -> Any:
    _note(command)
    return await _async(self, command, check_health)


sconn.AbstractConnection.send_packed_command = _s  # type: ignore[method-assign]
aconn.AbstractConnection.send_packed_command = _a  # type: ignore[method-assign]


PROFILE = os.environ.get("PROBE_PROFILE", "")
_prof = None


@contextmanager
def profiled() -> Any:
    global _prof
    if not PROFILE:
        yield
        return
    import cProfile

    if _prof is None:
        _prof = cProfile.Profile(time.process_time)
    _prof.enable()
    try:
        yield
    finally:
        _prof.disable()


def dump_profile(label: str) -> None:
    global _prof
    if _prof is None:
        return

    _prof.dump_stats(f"/tmp/request-probe-{label}.prof")
    _prof = None


@contextmanager
def tallied() -> Any:
    global _tally
    _tally = RedisTally()
    try:
        yield _tally
    finally:
        _tally = None


def form_of(action: engine.Action) -> dict[str, Any]:
    d = action.to_dict()
    return {
        k: v for k, v in d.items() if k in ("kind", "square", "target", "amount") and v is not None
    }


def choose(state: engine.State, player: int, version: int) -> engine.Action:
    bot = engine.make_bot("heuristic", rng=engine.bot_rng(state, version))
    return bot.act(state, player)


def mover(state: engine.State) -> int | None:
    a = engine.next_actor(state)
    if a is not None:
        return a
    for p in engine.pending_decisions(state):
        return p.player
    return None


N = int(os.environ.get("PROBE_N", "60"))
TRACE = os.environ.get("PROBE_TRACE", "")


@contextmanager
def traced() -> Any:
    import traceback

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        frames = [
            f"{f.filename.split('wt-request/')[-1]}:{f.lineno}:{f.name}"
            for f in traceback.extract_stack()
            if "wt-request/" in f.filename
            and ".venv" not in f.filename
            and "probe_" not in f.filename
        ]
        print("   SQL", sql[:70].replace("\n", " "), "<-", " < ".join(reversed(frames[-4:])))
        return execute(sql, params, many, context)

    if not TRACE:
        yield
        return
    with connection.execute_wrapper(wrapper):
        yield


VERBOSE = os.environ.get("PROBE_VERBOSE", "")


def _report(label: str, rows: list[tuple[int, int, Counter[str], float, list[str]]]) -> None:
    qs = [r[0] for r in rows]
    trips = [r[1] for r in rows]
    cpu = sorted(r[3] for r in rows)
    names: Counter[str] = Counter()
    for r in rows:
        names.update(r[2])
    print(
        f"\n[{label}] n={len(rows)} queries/action mean={sum(qs) / len(qs):.2f} max={max(qs)}"
        f" redis trips/action mean={sum(trips) / len(trips):.2f} max={max(trips)}"
        f" cpu ms/action mean={sum(cpu) / len(cpu):.2f} median={cpu[len(cpu) // 2]:.2f}"
    )
    th = sorted(THREAD_CPU)
    print(
        f"  request thread cpu ms/action mean={sum(th) / len(th):.2f} median={th[len(th) // 2]:.2f}"
    )
    THREAD_CPU.clear()
    print(
        "  subscriber cpu ms/action:",
        {k: round(v / len(rows), 3) for k, v in SUB_CPU.most_common()},
    )
    SUB_CPU.clear()
    print(
        "  redis commands per action:", {k: round(v / len(rows), 2) for k, v in names.most_common()}
    )
    if VERBOSE:
        kinds: Counter[str] = Counter()
        for r in rows:
            for sql in r[4]:
                kinds[re.sub(r"\d+", "N", sql[:90])] += 1
        for k, v in kinds.most_common():
            print(f"  {v / len(rows):5.2f}  {k}")


SUB_CPU: Counter[str] = Counter()
THREAD_CPU: list[float] = []


@pytest.fixture(autouse=True)
def _timed_subscribers() -> Any:
    import dataclasses

    from games.services import subscribers as subs

    saved = dict(subs._subscribers)
    for name, sub in saved.items():

        def timed(hook: Any, label: str) -> Any:
            if hook is None:
                return None

            def run(*a: Any) -> Any:
                t0 = time.thread_time()
                try:
                    return hook(*a)
                finally:
                    SUB_CPU[label] += (time.thread_time() - t0) * 1000

            return run

        subs._subscribers[name] = dataclasses.replace(
            sub,
            on_commit=timed(sub.on_commit, name + ".on_commit"),
            before_commit=timed(sub.before_commit, name + ".before_commit"),
            in_transaction=timed(sub.in_transaction, name + ".in_transaction"),
        )
    SUB_CPU.clear()
    yield
    subs._subscribers.clear()
    subs._subscribers.update(saved)


@pytest.fixture(autouse=True)
def _no_limits(settings: Any) -> None:
    from common.env import Rate

    big = [Rate(1000000, 10, "user"), Rate(1000000, 10, "ip")]
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api_write": [Rate(1000000, 10, "token")],
        "api_read": [Rate(1000000, 10, "token")],
        "action": big,
        "trade": big,
    }


def test_page_duel(alice: Any, bob: Any) -> None:
    from tests.games.conftest import _started

    game = _started(alice, bob)
    clients = {}
    for u in (alice, bob):
        c = Client()
        c.force_login(u)
        c.get(f"/games/{game.public_id}/")
        clients[u.pk] = c
    seats = {s.number: s.user_id for s in Seat.objects.filter(game=game)}
    rows = []
    for _ in range(N):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = engine.from_dict(game.state)
        p = mover(state)
        assert p is not None
        action = choose(state, p, game.version)
        if action.kind in (engine.PROPOSE_TRADE, engine.COUNTER_TRADE):
            action = engine.Action(engine.END_TURN, p) if False else action
        data = {**form_of(action), "expected_version": game.version}
        c = clients[seats[p]]
        with CaptureQueriesContext(connection) as q, tallied() as t, traced(), profiled():
            t0, t1 = time.process_time(), time.thread_time()
            r = c.post(f"/games/{game.public_id}/act", data, HTTP_HX_REQUEST="true")
            cpu = (time.process_time() - t0) * 1000
            THREAD_CPU.append((time.thread_time() - t1) * 1000)
        assert r.status_code in (200, 409, 422), (r.status_code, data)
        rows.append((len(q), t.trips, t.names, cpu, [x["sql"] for x in q]))
    _report("page duel (htmx)", rows)
    dump_profile("page-duel")


def test_page_vs_instant_bot(alice: Any) -> None:
    from tests.games.conftest import _started

    game = _started(alice, bots=1)
    c = Client()
    c.force_login(alice)
    c.get(f"/games/{game.public_id}/")
    me = Seat.objects.get(game=game, user=alice).number
    rows = []
    for _ in range(N):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = engine.from_dict(game.state)
        p = mover(state)
        if p != me:
            from games.services.play import play_bot_move

            play_bot_move(game.pk, game.version)
            continue
        action = choose(state, p, game.version)
        data = {**form_of(action), "expected_version": game.version}
        with CaptureQueriesContext(connection) as q, tallied() as t, traced(), profiled():
            t0, t1 = time.process_time(), time.thread_time()
            r = c.post(f"/games/{game.public_id}/act", data, HTTP_HX_REQUEST="true")
            cpu = (time.process_time() - t0) * 1000
            THREAD_CPU.append((time.thread_time() - t1) * 1000)
        assert r.status_code in (200, 409, 422), (r.status_code, data)
        rows.append((len(q), t.trips, t.names, cpu, [x["sql"] for x in q]))
    _report("page vs instant bot (htmx)", rows)
    dump_profile("page-bot")


def test_api_vs_instant_bot(alice: Any, settings: Any) -> None:
    from api import tokens
    from common.env import Rate

    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api_write": [Rate(1000000, 10, "token")],
        "api_read": [Rate(1000000, 10, "token")],
        "action": [Rate(1000000, 10, "user"), Rate(1000000, 10, "ip")],
    }

    token = tokens.issue(alice, scopes=["play", "read"], name="probe")[1]
    c = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    r = c.post(
        "/api/v1/games",
        json.dumps({"seats": 2, "bot_speed": "instant"}),
        content_type="application/json",
    )
    assert r.status_code in (200, 201), r.content
    gid = r.json()["id"]
    assert c.post(
        f"/api/v1/games/{gid}/bots",
        json.dumps({"kind": "heuristic"}),
        content_type="application/json",
    ).status_code in (200, 201)
    assert c.post(f"/api/v1/games/{gid}/start").status_code == 200
    game = Game.objects.get(public_id=gid)
    me = Seat.objects.get(game=game, user=alice).number
    rows = []
    key = 0
    for _ in range(N):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = engine.from_dict(game.state)
        p = mover(state)
        if p != me:
            from games.services.play import play_bot_move

            play_bot_move(game.pk, game.version)
            continue
        action = choose(state, p, game.version)
        body = {
            "action": {k: v for k, v in action.to_dict().items() if k != "player"},
            "expected_version": game.version,
        }
        key += 1
        with CaptureQueriesContext(connection) as q, tallied() as t, traced(), profiled():
            t0, t1 = time.process_time(), time.thread_time()
            r = c.post(
                f"/api/v1/games/{gid}/actions",
                json.dumps(body),
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=f"k{key}",
            )
            cpu = (time.process_time() - t0) * 1000
            THREAD_CPU.append((time.thread_time() - t1) * 1000)
        assert r.status_code in (200, 409, 422), (r.status_code, r.content, body)
        rows.append((len(q), t.trips, t.names, cpu, [x["sql"] for x in q]))
    _report("api vs instant bot", rows)
    dump_profile("api-bot")
