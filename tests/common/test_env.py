from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from common.env import (
    check_redis_url,
    env_bool,
    env_int,
    env_list,
    env_str,
    parse_database_url,
    redis_prefix_for,
    site_url_for,
    sqlite_database,
)

BASE = Path("/srv/site")


def test_env_bool_reads_common_spellings() -> None:
    assert env_bool("DEBUG", False, {"DEBUG": "yes"}) is True
    assert env_bool("DEBUG", True, {"DEBUG": "0"}) is False
    assert env_bool("DEBUG", True, {}) is True


def test_env_bool_rejects_malformed_value_naming_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match="DEBUG must be one of"):
        env_bool("DEBUG", False, {"DEBUG": "maybe"})


def test_env_int_reads_and_rejects() -> None:
    assert env_int("EMAIL_PORT", 25, {"EMAIL_PORT": " 587 "}) == 587
    assert env_int("EMAIL_PORT", 25, {}) == 25
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT must be a whole number"):
        env_int("EMAIL_PORT", 25, {"EMAIL_PORT": "twenty"})


def test_env_list_splits_on_commas_and_drops_blanks() -> None:
    assert env_list("ALLOWED_HOSTS", ["x"], {"ALLOWED_HOSTS": "a.com, b.com,,"}) == [
        "a.com",
        "b.com",
    ]
    assert env_list("ALLOWED_HOSTS", ["x"], {}) == ["x"]


def test_env_str_defaults() -> None:
    assert env_str("SECRET_KEY", "d", {}) == "d"
    assert env_str("SECRET_KEY", "d", {"SECRET_KEY": "s"}) == "s"


def test_database_url_sqlite_uses_wal_and_immediate_transactions(tmp_path: Path) -> None:
    db = parse_database_url(f"sqlite:///{tmp_path}/site.db", BASE)
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == f"{tmp_path}/site.db"
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]
    assert "busy_timeout" in db["OPTIONS"]["init_command"]


def test_database_url_postgres_parts() -> None:
    db = parse_database_url("postgres://alice:s%40cret@db.internal:6543/monopoly", BASE)
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == (
        "alice",
        "s@cret",
        "db.internal",
        "6543",
        "monopoly",
    )


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://root@localhost/x", "must start with sqlite:// or postgres://"),
        ("postgres://localhost", "must name a host and a database"),
        ("postgres://u@h:port/db", "port that is not a number"),
        ("sqlite://", "needs a file path"),
        ("nonsense", "must start with sqlite:// or postgres://"),
    ],
)
def test_database_url_rejects_malformed(url: str, message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        parse_database_url(url, BASE)


def test_redis_url_accepts_redis_and_rejects_others() -> None:
    assert check_redis_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must look like"):
        check_redis_url("http://127.0.0.1:6379")
    with pytest.raises(ImproperlyConfigured, match="port that is not a number"):
        check_redis_url("redis://127.0.0.1:abc/0")


def test_redis_prefix_names_the_database_and_tells_apart_two_of_the_same_name() -> None:
    here = parse_database_url("postgres://postgres@db-one:5432/monopoly", BASE)
    there = parse_database_url("postgres://postgres@db-two:5432/monopoly", BASE)
    assert redis_prefix_for(here).startswith("monopoly-monopoly-")
    assert redis_prefix_for(here) != redis_prefix_for(there)


def test_redis_prefix_does_not_depend_on_who_connects_to_the_database() -> None:
    admin = parse_database_url("postgres://postgres@Db:5432/site", BASE)
    app = parse_database_url("postgres://app:secret@db/site", BASE)  # 5432 is the default
    assert redis_prefix_for(admin) == redis_prefix_for(app)


def test_redis_prefix_of_sqlite_follows_the_file(tmp_path: Path) -> None:
    one = sqlite_database(tmp_path / "db.sqlite3")
    other = sqlite_database(tmp_path / "db-8001.sqlite3")
    assert redis_prefix_for(one) != redis_prefix_for(other)
    assert redis_prefix_for(other).startswith("monopoly-db-8001-")


def test_redis_prefix_keeps_only_characters_safe_in_keys_and_names() -> None:
    odd = parse_database_url("postgres://postgres@h/we%20ird:name", BASE)
    prefix = redis_prefix_for(odd)
    assert all(c.isalnum() or c in "._-" for c in prefix), prefix


def test_site_url_links_to_the_bound_address_or_loopback_for_a_wildcard() -> None:
    assert site_url_for("127.0.0.1", 8001) == "http://127.0.0.1:8001"
    assert site_url_for("0.0.0.0", 8000) == "http://127.0.0.1:8000"
    assert site_url_for("::1", 8002) == "http://[::1]:8002"
