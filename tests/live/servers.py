"""Real daphne processes for tests: against the test database and this test
run's Redis prefix, so that they share one channel layer with the tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import Client

from tests.conftest import database_url_for_tests

BASE_DIR = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_serving(port: int, process: subprocess.Popen[bytes], log: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited early; see {log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne on port {port} did not answer within 60 s; see {log}")


@contextlib.contextmanager
def daphnes(count: int) -> Iterator[list[int]]:
    """``count`` daphne processes, each on its own port; yields the ports."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url_for_tests(),
        REDIS_URL=settings.REDIS_URL,
        REDIS_PREFIX=settings.REDIS_PREFIX,
        DJANGO_SETTINGS_MODULE="monopoly_site.settings",
    )
    (BASE_DIR / ".run").mkdir(exist_ok=True)
    ports = [free_port() for _ in range(count)]
    processes: list[subprocess.Popen[bytes]] = []
    logs: list[Any] = []
    try:
        for port in ports:
            out = open(BASE_DIR / ".run" / f"test-daphne-{os.getpid()}-{port}.log", "w")  # noqa: SIM115
            logs.append(out)
            processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "daphne",
                        "-b",
                        "127.0.0.1",
                        "-p",
                        str(port),
                        "monopoly_site.asgi:application",
                    ],
                    cwd=BASE_DIR,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
        for port, process, out in zip(ports, processes, logs, strict=True):
            _wait_until_serving(port, process, out.name)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        for out in logs:
            out.close()


def session_cookie(user: Any) -> str:
    """A logged-in session for ``user``, as the value of the session cookie."""
    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)
