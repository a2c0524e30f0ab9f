"""Settings as a whole, loaded in a fresh interpreter as a deployment would."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from common.env import load_local_env, local_env_path, read_local_env, write_local_env
from monopoly_site import localservices

BASE_DIR = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x7Hq2p-production-secret-for-tests-only-3kLmN9vBq8rT5wZ1yUoPaSdFgHjK",
    "ALLOWED_HOSTS": "monopoly.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://monopoly.example.com",
}

PLAIN_HTTP = ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE")


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **env}
    # The browser tests' event-loop allowance must not leak into a deploy
    # check, nor the test runner's plain-HTTP exceptions (localservices).
    for name in ("DJANGO_ALLOW_ASYNC_UNSAFE", *PLAIN_HTTP):
        if name not in env:
            full_env.pop(name, None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@functools.cache
def deploy_check() -> subprocess.CompletedProcess[str]:
    """``check --deploy`` in production mode: run once, read by two tests
    (a Django start-up in a process of its own is seconds on a busy machine)."""
    return run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)


def test_production_mode_passes_check_deploy_without_warnings() -> None:
    result = deploy_check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_mode_refuses_to_start_without_secret_key() -> None:
    env = {**PRODUCTION, "SECRET_KEY": ""}
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_malformed_variable_stops_start_up_with_a_clear_message() -> None:
    result = run_manage("check", DEBUG="perhaps")
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


def test_csrf_trusted_origins_need_a_scheme() -> None:
    result = run_manage("check", CSRF_TRUSTED_ORIGINS="monopoly.example.com")
    assert result.returncode != 0
    assert "CSRF_TRUSTED_ORIGINS entries need a scheme" in result.stderr


def test_check_deploy_prints_no_warning_at_all() -> None:
    result = deploy_check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def settings_without(*names: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``manage.py shell`` printing DEBUG, with ``names`` left out of the environment."""
    full_env = {k: v for k, v in os.environ.items() if k not in names}
    full_env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.conf import settings; print(settings.DEBUG)",
        ],
        cwd=BASE_DIR,
        env={**full_env, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_debug_is_off_unless_the_environment_turns_it_on() -> None:
    result = settings_without("DEBUG", SECRET_KEY=PRODUCTION["SECRET_KEY"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "False"


def test_without_debug_or_secret_key_the_site_refuses_to_start() -> None:
    result = settings_without("DEBUG", "SECRET_KEY")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_refuses_a_database_pool_no_larger_than_the_request_threads() -> None:
    env = {
        **PRODUCTION,
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/monopoly",  # SQLite has no pool
        "DATABASE_POOL": "true",
        "DATABASE_POOL_SIZE": "4",
        "REQUEST_THREADS": "4",
    }
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert "DATABASE_POOL_SIZE (4) must exceed REQUEST_THREADS (4)" in result.stderr
    env["DATABASE_POOL_SIZE"] = "5"
    assert run_manage("check", **env).returncode == 0


# What each user of Redis takes its prefix from (monopoly_site/settings.py);
# the raw clients of live/presence.py and live/fanout.py read REDIS_PREFIX itself.
REDIS_NAMES = """
import json
from monopoly_site import settings as s
print(json.dumps({
    "prefix": s.REDIS_PREFIX,
    "cache": s.CACHES["default"]["KEY_PREFIX"],
    "channels": s.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
    "queue": s.CELERY_TASK_DEFAULT_QUEUE,
    "broker": s.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"],
    "results": s.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS["global_keyprefix"],
    "site_url": s.SITE_URL,
    "database": s.DATABASES["default"]["NAME"],
    "debug": s.DEBUG,
}))
"""
SITE_VARIABLES = ("REDIS_PREFIX", "DATABASE_URL", "SITE_URL", "HOST", "PORT")


def loaded_settings(**env: str) -> dict[str, str]:
    """The settings a process started with ``env`` (and none of
    SITE_VARIABLES but those given) reads."""
    full_env = {k: v for k, v in os.environ.items() if k not in SITE_VARIABLES}
    result = subprocess.run(
        [sys.executable, "-c", REDIS_NAMES],
        cwd=BASE_DIR,
        env={**full_env, "DEBUG": "true", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    loaded: dict[str, str] = json.loads(result.stdout.splitlines()[-1])
    return loaded


def everything_in_redis_follows(loaded: dict[str, str], prefix: str) -> None:
    assert loaded["prefix"] == loaded["cache"] == prefix
    assert loaded["channels"] == f"{prefix}:asgi"
    assert loaded["queue"] == f"{prefix}-default"
    assert loaded["broker"] == loaded["results"] == f"{prefix}:"


def test_sites_with_different_databases_derive_different_redis_prefixes() -> None:
    first = loaded_settings(DATABASE_URL="postgres://postgres@127.0.0.1:5432/site_one")
    second = loaded_settings(DATABASE_URL="postgres://postgres@127.0.0.1:5432/site_two")
    assert first["prefix"] != second["prefix"]
    assert "site_one" in first["prefix"] and "site_two" in second["prefix"]
    everything_in_redis_follows(first, first["prefix"])
    everything_in_redis_follows(second, second["prefix"])


def test_processes_of_one_site_agree_on_its_derived_prefix_whatever_their_port() -> None:
    url = "postgres://postgres@127.0.0.1:5432/site_one"
    web = loaded_settings(DATABASE_URL=url, PORT="8001")
    worker = loaded_settings(DATABASE_URL=url)
    assert web["prefix"] == worker["prefix"]


def test_an_explicit_redis_prefix_is_kept_for_everything_in_redis() -> None:
    loaded = loaded_settings(
        REDIS_PREFIX="shared-site", DATABASE_URL="postgres://postgres@127.0.0.1:5432/site_one"
    )
    everything_in_redis_follows(loaded, "shared-site")


def test_make_run_sites_on_two_ports_get_databases_and_prefixes_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[dict[str, str]] = []

    def stop_before_starting_anything(env: dict[str, str], **_: object) -> None:
        seen.append(dict(env))
        raise SystemExit(0)

    monkeypatch.setattr(localservices, "choose_redis", stop_before_starting_anything)
    for port in ("8000", "8001"):
        with pytest.raises(SystemExit):
            localservices.run_site({"PORT": port})
    urls = [env["DATABASE_URL"] for env in seen]
    assert urls[0].endswith("/.run/db.sqlite3")  # the default port keeps its database
    assert urls[1].endswith("/.run/db-8001.sqlite3")
    sites = [loaded_settings(DATABASE_URL=url) for url in urls]
    assert sites[0]["prefix"] != sites[1]["prefix"]


def test_make_run_keeps_the_database_url_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def stop_before_starting_anything(env: dict[str, str], **_: object) -> None:
        seen.append(env["DATABASE_URL"])
        raise SystemExit(0)

    monkeypatch.setattr(localservices, "choose_redis", stop_before_starting_anything)
    with pytest.raises(SystemExit):
        localservices.run_site({"PORT": "8001", "DATABASE_URL": "postgres://h/mine"})
    assert seen == ["postgres://h/mine"]


def test_email_links_follow_host_and_port_unless_site_url_is_set() -> None:
    assert loaded_settings()["site_url"] == "http://127.0.0.1:8000"
    assert loaded_settings(PORT="8001")["site_url"] == "http://127.0.0.1:8001"
    assert loaded_settings(HOST="localhost", PORT="9000")["site_url"] == "http://localhost:9000"
    set_url = loaded_settings(SITE_URL="https://monopoly.example.com/", PORT="8001")
    assert set_url["site_url"] == "https://monopoly.example.com"


def test_a_port_that_is_not_a_number_stops_start_up_naming_it() -> None:
    result = run_manage("check", DEBUG="true", PORT="eighty")
    assert result.returncode != 0
    assert "PORT must be a whole number" in result.stderr


def test_the_estimates_round_delay_is_read_from_the_environment_and_never_below_one() -> None:
    script = "from monopoly_site import settings as s; print(s.ANALYSIS_DELAY_ROUNDS)"

    def rounds(value: str | None) -> str:
        env = {k: v for k, v in os.environ.items() if k != "ANALYSIS_DELAY_ROUNDS"}
        if value is not None:
            env["ANALYSIS_DELAY_ROUNDS"] = value
        result = subprocess.run(
            [sys.executable, "-c", script],
            cwd=BASE_DIR,
            env={**env, "DEBUG": "true"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip().splitlines()[-1]

    assert rounds(None) == "1"
    assert rounds("3") == "3"
    assert rounds("0") == "1"
    malformed = run_manage("check", DEBUG="true", ANALYSIS_DELAY_ROUNDS="soon")
    assert malformed.returncode != 0
    assert "ANALYSIS_DELAY_ROUNDS" in malformed.stderr


# --- the settings `make run` leaves for manage.py (common/env.py) -----------------------


def test_the_test_runner_reads_no_local_settings_file() -> None:
    assert os.environ["LOCAL_ENV"] == "none"


def test_port_chooses_the_sites_file_and_local_env_overrides_it(tmp_path: Path) -> None:
    assert local_env_path(tmp_path, {}) == tmp_path / "local.env"
    assert local_env_path(tmp_path, {"PORT": "8001"}) == tmp_path / "local-8001.env"
    assert local_env_path(tmp_path, {"PORT": "8001", "LOCAL_ENV": "/x.env"}) == Path("/x.env")
    assert local_env_path(tmp_path, {"LOCAL_ENV": "none"}) is None
    # A deployment (its environment sets SECRET_KEY) never reads one unless told to.
    assert local_env_path(tmp_path, {"SECRET_KEY": "k" * 50}) is None
    assert local_env_path(tmp_path, {"SECRET_KEY": "k", "LOCAL_ENV": "/x.env"}) == Path("/x.env")


def test_the_environment_wins_over_the_file_and_a_malformed_file_says_where(
    tmp_path: Path,
) -> None:
    path = tmp_path / "local.env"
    write_local_env(path, {"DEBUG": "true", "PORT": "8001"}, "a note\non two lines")
    assert path.stat().st_mode & 0o777 == 0o600
    environ = {"PORT": "9000", "LOCAL_ENV": str(path)}
    assert load_local_env(tmp_path, environ) == path
    assert environ == {"PORT": "9000", "LOCAL_ENV": str(path), "DEBUG": "true"}
    path.write_text("DEBUG=true\nnot a setting\n")
    with pytest.raises(ImproperlyConfigured, match=r"local\.env, line 2: expected NAME=value"):
        load_local_env(tmp_path, {"LOCAL_ENV": str(path)})


def test_manage_py_with_nothing_exported_uses_the_sites_settings(tmp_path: Path) -> None:
    database = tmp_path / "db-8123.sqlite3"
    path = tmp_path / "local.env"
    write_local_env(path, {"DEBUG": "true", "DATABASE_URL": f"sqlite:///{database}"}, "test")
    bare = {
        k: v for k, v in os.environ.items() if k not in {*SITE_VARIABLES, "DEBUG", "SECRET_KEY"}
    }
    result = subprocess.run(
        [sys.executable, "-c", REDIS_NAMES],
        cwd=BASE_DIR,
        env={**bare, "LOCAL_ENV": str(path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout.splitlines()[-1])
    assert loaded["debug"] is True and loaded["database"] == str(database)
    # Without a file, a process on another PORT still opens that port's database.
    assert loaded_settings(PORT="8123")["database"].endswith("/.run/db-8123.sqlite3")
    refused = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env={**bare, "LOCAL_ENV": "none"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode != 0 and "run `make run` once" in refused.stderr


def test_make_run_leaves_its_settings_for_manage_py_and_its_processes_read_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def local_redis(env: dict[str, str], **_: object) -> None:
        env["REDIS_URL"] = "redis://127.0.0.1:6390/0"

    started: list[dict[str, str]] = []

    def stop_at_migrate(env: dict[str, str], *args: str) -> None:
        started.append(dict(env))
        raise SystemExit(0)

    monkeypatch.setattr(localservices, "RUN_DIR", tmp_path)
    monkeypatch.setattr(localservices, "choose_redis", local_redis)
    monkeypatch.setattr(localservices, "manage", stop_at_migrate)
    for port in ("8001", "8002"):
        with pytest.raises(SystemExit):
            localservices.run_site({"PORT": port, "VAPID_SUBJECT": "mailto:me@example.com"})
    assert [env["LOCAL_ENV"] for env in started] == ["none", "none"]
    first = read_local_env(tmp_path / "local-8001.env")
    assert first == {
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db-8001.sqlite3'}",
        "REDIS_URL": "redis://127.0.0.1:6390/0",
        "HOST": "127.0.0.1",
        "PORT": "8001",
        "VAPID_SUBJECT": "mailto:me@example.com",
    }
    # The last one started is the one manage.py reads without PORT.
    assert read_local_env(tmp_path / "local.env")["PORT"] == "8002"
