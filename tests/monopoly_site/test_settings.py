"""Settings as a whole, loaded in a fresh interpreter as a deployment would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def test_production_mode_passes_check_deploy_without_warnings() -> None:
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
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
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
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
