"""The HTTP server's own cost: one Daphne against one uvicorn or gunicorn.

On one stack (bench/stack.py with ``http=--against``: a Daphne and a uvicorn
(ASGI) or gunicorn (WSGI, gthread) process side by side on the same database
and Redis), sends ``--requests``
GETs of ``--path`` (/healthz: a database and a Redis round trip, no
template) over ``--connections`` keep-alive connections straight to each
server in turn, ``--rounds`` times alternately, and reports per server the
requests a second and the server process's CPU per request read from /proc
(utime+stime; the PostgreSQL backends' and redis-server's share apart).
CPU per request survives a busy machine; the rate does not. Prints JSON.

    python bench/httpserver.py [--against uvicorn|gunicorn] [--requests 2000]
                               [--connections 8] [--rounds 3] [--path /healthz]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from typing import Any

from benchlib import BASE_DIR, machine
from stack import Stack


async def hammer(port: int, path: str, requests: int, connections: int) -> tuple[int, int]:
    """(answers 200, others) for ``requests`` GETs over keep-alive connections."""
    left = [requests]
    counts = [0, 0]
    head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()

    async def one() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while left[0] > 0:
                left[0] -= 1
                writer.write(head)
                status = int((await reader.readline()).split()[1])
                length = None
                chunked = False
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                    elif name.lower() == "transfer-encoding" and "chunked" in value:
                        chunked = True
                if chunked:
                    while size := int((await reader.readline()).strip(), 16):
                        await reader.readexactly(size + 2)
                    await reader.readline()
                elif length:
                    await reader.readexactly(length)
                counts[0 if status == 200 else 1] += 1
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(connections)))
    return counts[0], counts[1]


def measure(stack: Stack, kind: str, port: int, opts: argparse.Namespace) -> dict[str, Any]:
    asyncio.run(hammer(port, opts.path, 50, opts.connections))  # warm the connections
    meter = stack.cpu_meter().start()
    began = time.perf_counter()
    ok, other = asyncio.run(hammer(port, opts.path, opts.requests, opts.connections))
    seconds = time.perf_counter() - began
    spent = meter.stop()
    n = ok + other
    return {
        "server": kind,
        "requests": n,
        "non_200": other,
        "requests_per_second": round(n / seconds, 1),
        # The second servers run as http0, http1...: their kind is "http".
        "server_cpu_ms_per_request": round(
            spent.get(kind if kind == "daphne" else "http", 0.0) / n, 3
        ),
        "postgres_cpu_ms_per_request": round(spent.get("postgres", 0.0) / n, 3),
        "redis_cpu_ms_per_request": round(spent.get("redis", 0.0) / n, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--path", default="/healthz")
    parser.add_argument("--against", choices=["uvicorn", "gunicorn"], default="uvicorn")
    opts = parser.parse_args()
    stack = Stack(name="httpserver", daphnes=1, http=opts.against, http_servers=1, workers=1)
    try:
        stack.start()
        runs: dict[str, list[dict[str, Any]]] = {"daphne": [], "http": []}
        for _ in range(opts.rounds):
            runs["daphne"].append(measure(stack, "daphne", stack.daphne_ports[0], opts))
            runs["http"].append(measure(stack, "http", stack.http_ports[0], opts))
        result: dict[str, Any] = {"path": opts.path, "connections": opts.connections}
        other = opts.against
        for kind, name in (("daphne", "daphne"), ("http", other)):
            result[name] = {
                key: statistics.median(r[key] for r in runs[kind])
                for key in runs[kind][0]
                if key != "server"
            }
            result[name]["rounds"] = runs[kind]
        d, u = result["daphne"], result[other]
        result[f"daphne_over_{other}_cpu"] = round(
            d["server_cpu_ms_per_request"] / max(u["server_cpu_ms_per_request"], 1e-9), 2
        )
        result[f"{other}_over_daphne_rate"] = round(
            u["requests_per_second"] / max(d["requests_per_second"], 1e-9), 2
        )
        result["machine"] = machine()
        print(json.dumps(result, indent=2), flush=True)
    finally:
        stack.stop()
        stack.drop()
        stack.cleanup(keep_logs=False)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(BASE_DIR))
    sys.exit(main())
