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


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url_for_tests(),
        REDIS_URL=settings.REDIS_URL,
        REDIS_PREFIX=settings.REDIS_PREFIX,
        DJANGO_SETTINGS_MODULE="monopoly_site.settings",
    )
    return env


class Daphne:
    """One daphne process on a fixed port; it can be stopped and started
    again on the same port (as a restart or a dropped network looks to a page)."""

    def __init__(self, port: int, env: dict[str, str] | None = None) -> None:
        self.port = port
        self.env = env or {}  # on top of the test run's (e.g. another REDIS_URL)
        self.process: subprocess.Popen[bytes] | None = None
        (BASE_DIR / ".run").mkdir(exist_ok=True)
        self.log_path = BASE_DIR / ".run" / f"test-daphne-{os.getpid()}-{port}.log"

    def start(self) -> None:
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "monopoly_site.asgi:application",
                ],
                cwd=BASE_DIR,
                env={**_env(), **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def wait_until_serving(self) -> None:
        assert self.process is not None
        _wait_until_serving(self.port, self.process, str(self.log_path))

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@contextlib.contextmanager
def daphne_servers(count: int) -> Iterator[list[Daphne]]:
    servers = [Daphne(free_port()) for _ in range(count)]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_until_serving()
        yield servers
    finally:
        for server in servers:
            server.stop()


@contextlib.contextmanager
def daphnes(count: int) -> Iterator[list[int]]:
    """``count`` daphne processes, each on its own port; yields the ports."""
    with daphne_servers(count) as servers:
        yield [server.port for server in servers]


def session_cookie(user: Any) -> str:
    """A logged-in session for ``user``, as the value of the session cookie."""
    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)
