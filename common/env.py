"""Typed readers for settings that come from the environment.

Every reader raises ``ImproperlyConfigured`` naming the variable and the
expected shape, so a typo in deployment fails at start-up with a message
an operator can act on instead of somewhere deep inside a request.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str, environ: Mapping[str, str] = os.environ) -> str:
    return environ.get(name, default)


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of true/false/1/0/yes/no/on/off, not {raw!r}.")


def env_int(name: str, default: int, environ: Mapping[str, str] = os.environ) -> int:
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None


def env_list(name: str, default: list[str], environ: Mapping[str, str] = os.environ) -> list[str]:
    raw = environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


@dataclass(frozen=True)
class Rate:
    """At most ``count`` in ``seconds``, counted separately for each ``per``."""

    count: int
    seconds: int
    per: str


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def env_rates(
    name: str, default: str, pers: set[str], environ: Mapping[str, str] = os.environ
) -> tuple[Rate, ...]:
    """Rates written ``count/window/per`` and joined by commas, like
    ``10/10s/user,30/10s/ip``; the window is a number with s, m, h or d
    (``m`` alone is one minute). An empty value turns the limits off."""
    raw = environ.get(name, default)
    rates = []
    for part in raw.split(","):
        if not part.strip():
            continue
        try:
            count, window, per = (p.strip() for p in part.split("/"))
            seconds = int(window[:-1] or 1) * _UNITS[window[-1]]
            rate = Rate(int(count), seconds, per)
        except (ValueError, KeyError, IndexError):
            rate = None
        if rate is None or rate.count < 1 or rate.seconds < 1 or rate.per not in pers:
            raise ImproperlyConfigured(
                f"{name} must be rates like 10/10s/{sorted(pers)[0]} joined by commas "
                f"(window in s, m, h or d; per one of {', '.join(sorted(pers))}), not {raw!r}."
            )
        rates.append(rate)
    return tuple(rates)


def parse_database_url(url: str, base_dir: Path, name: str = "DATABASE_URL") -> dict[str, Any]:
    """Turn ``sqlite:///path`` or ``postgres://user:pass@host:port/db`` into Django settings."""
    parts = urlsplit(url)
    scheme = parts.scheme
    if scheme == "sqlite":
        # sqlite:///relative.db and sqlite:////absolute/path.db, as dj-database-url reads them.
        raw_path = unquote(parts.path)
        if raw_path.startswith("/"):
            raw_path = raw_path[1:]
        if not raw_path:
            raise ImproperlyConfigured(f"{name} needs a file path, e.g. sqlite:///db.sqlite3.")
        path = Path(raw_path)
        if not path.is_absolute():
            path = base_dir / path
        return sqlite_database(path)
    if scheme in {"postgres", "postgresql", "pgsql"}:
        db_name = unquote(parts.path.lstrip("/"))
        if not db_name or not parts.hostname:
            raise ImproperlyConfigured(
                f"{name} must name a host and a database, e.g. postgres://postgres@127.0.0.1:5432/monopoly."
            )
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} has a port that is not a number: {url!r}."
            ) from None
        options = dict(parse_qsl(parts.query))
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": db_name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname,
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
    raise ImproperlyConfigured(
        f"{name} must start with sqlite:// or postgres://, not {scheme + '://' if scheme else repr(url)}."
    )


def sqlite_database(path: Path) -> dict[str, Any]:
    path.parent.mkdir(parents=True, exist_ok=True)
    # WAL lets readers run beside the one writer; IMMEDIATE takes the write lock
    # at BEGIN so concurrent writers queue on busy_timeout instead of failing
    # with "database is locked" when a read transaction upgrades.
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA busy_timeout=20000;"
            ),
        },
        "TEST": {"NAME": str(path.with_name(path.stem + "_test" + path.suffix))},
    }


def check_redis_url(url: str, name: str = "REDIS_URL") -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise ImproperlyConfigured(f"{name} must look like redis://host:port/db, not {url!r}.")
    try:
        _ = parts.port  # urlsplit only validates the port when asked
    except ValueError:
        raise ImproperlyConfigured(f"{name} has a port that is not a number: {url!r}.") from None
    return url


def redis_prefix_for(database: Mapping[str, Any], base: str = "monopoly") -> str:
    """The Redis prefix of the site whose database this is, when REDIS_PREFIX
    is not set: sites that share a Redis but not a database (two `make run`s
    on different ports) then never share keys, channel groups or queues,
    and every process of one site (same database) agrees on it. The
    database's name keeps it readable; a digest of where the database is
    tells apart two of the same name."""
    if "sqlite" in str(database.get("ENGINE", "")):
        path = Path(str(database["NAME"])).resolve()
        where, name = f"sqlite:{path}", path.stem
    else:
        host = str(database.get("HOST") or "").lower()
        where = f"postgresql://{host}:{database.get('PORT') or 5432}/{database['NAME']}"
        name = str(database["NAME"])
    label = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "-" for c in name)[:40]
    digest = hashlib.sha256(where.encode()).hexdigest()[:8]
    return f"{base}-{label}-{digest}"


def site_url_for(host: str, port: int) -> str:
    """The base of email links when SITE_URL is not set: where `make run`
    serves (HOST and PORT). A wildcard bind address is no place to link
    to, so it becomes the loopback address."""
    host = host.strip() or "127.0.0.1"
    if host in {"0.0.0.0", "::", "[::]"}:
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


# --- the local settings file that `make run` leaves ---------------------------------

# Where `make run` leaves its settings, read for any variable the environment
# does not set, so that `python manage.py ...` in a fresh shell works on the
# site `make run` set up: its debug mode and key, its database (a PORT of its
# own has a SQLite file of its own) and its Redis. LOCAL_ENV names another
# file, or `none` for none (the tests' runner sets that: a developer's file
# must not change a test run). Unset, PORT chooses the site by its port
# (.run/local-PORT.env); without PORT it is .run/local.env, the last `make
# run` started; with SECRET_KEY in the environment (a deployment) it is none.
LOCAL_ENV = "LOCAL_ENV"
_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def site_suffix(port: str) -> str:
    """Nothing for `make run`'s default port, ``-PORT`` for any other: a
    site's SQLite file is .run/db{suffix}.sqlite3, its embedded Redis keeps
    its data in .run/redis{suffix}."""
    return "" if port == "8000" else f"-{port}"


def local_env_path(run_dir: Path, environ: Mapping[str, str] = os.environ) -> Path | None:
    """The local settings file to read, or None: LOCAL_ENV=none, or a
    process whose environment sets SECRET_KEY. A deployment always does (it
    is required without DEBUG), and its processes must never take DEBUG=true
    from a file some `make run` left in the checkout; a developer's shell
    never needs to."""
    chosen = environ.get(LOCAL_ENV)
    if chosen is not None:
        return None if chosen.strip().lower() in {"", "none"} else Path(chosen)
    if environ.get("SECRET_KEY"):
        return None
    port = environ.get("PORT", "").strip()
    return run_dir / (f"local-{port}.env" if port else "local.env")


def read_local_env(path: Path) -> dict[str, str]:
    """``NAME=value`` lines (blank lines and ``#`` comments skipped; the
    value is everything after the first ``=``, as written)."""
    out: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, equals, value = line.partition("=")
        if not equals or not _NAME.fullmatch(name):
            raise ImproperlyConfigured(
                f"{path}, line {number}: expected NAME=value; delete the file or run `make run`."
            )
        out[name] = value
    return out


def load_local_env(run_dir: Path, environ: MutableMapping[str, str] = os.environ) -> Path | None:
    """Set each variable of the local settings file that ``environ`` does
    not already have (the environment always wins); the file read, or None."""
    path = local_env_path(run_dir, environ)
    if path is None or not path.is_file():
        return None
    for name, value in read_local_env(path).items():
        environ.setdefault(name, value)
    return path


def write_local_env(path: Path, values: Mapping[str, str], note: str) -> None:
    """Write ``values`` for ``load_local_env`` at once (a reader never sees
    half a file), readable by its owner only: it may hold SECRET_KEY."""
    lines = [f"# {line}".rstrip() for line in note.splitlines()]
    for name, value in values.items():
        if not _NAME.fullmatch(name) or "\n" in value or "\r" in value:
            raise ValueError(f"{name} cannot be written to {path}")
        lines.append(f"{name}={value}")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
    partial.chmod(0o600)
    os.replace(partial, path)
