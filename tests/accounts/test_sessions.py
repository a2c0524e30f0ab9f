"""Sessions are read from Redis and kept in the database (accounts/sessions.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.models import Session
from django.db import DataError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.sessions import SessionStore

NUL_KEY = "a" * 31 + "\x00"  # a cookie the visitor wrote


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_signed_in_request_reads_its_session_from_the_cache(alice: User) -> None:
    client = _signed_in(alice)
    # The database has it too: it is the copy that counts.
    assert Session.objects.filter(session_key=client.session.session_key).exists()
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/settings/")
    assert response.status_code == 200 and response.context["user"] == alice
    assert not [q for q in queries if "django_session" in q["sql"]]


@pytest.mark.django_db
def test_without_redis_the_session_comes_from_the_database(alice: User, monkeypatch: Any) -> None:
    from django.core.cache import caches

    client = _signed_in(alice)
    cache = caches["default"]

    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/settings/")
    assert response.status_code == 200 and response.context["user"] == alice
    assert [q for q in queries if "django_session" in q["sql"]]


@pytest.mark.django_db
def test_logging_out_ends_the_cached_session_too(alice: User) -> None:
    client = _signed_in(alice)
    key = client.session.session_key
    client.post("/accounts/logout/")
    assert not Session.objects.filter(session_key=key).exists()
    client.cookies["sessionid"] = key
    assert client.get("/settings/").status_code == 302  # to the login page


@pytest.fixture
def _redis_health_reset(monkeypatch: pytest.MonkeyPatch) -> Any:
    from common import redis_health

    # Two failures at once take Redis for down here (not only after a while).
    monkeypatch.setattr(redis_health, "FAILING_SECONDS", 0.0)
    redis_health.reset()
    yield redis_health
    redis_health.reset()


@pytest.mark.django_db
def test_a_logout_while_redis_is_down_is_not_undone_by_its_cached_copy(
    alice: User, _redis_health_reset: Any
) -> None:
    import time

    redis_health = _redis_health_reset
    client = _signed_in(alice)
    key = client.session.session_key
    assert client.get("/settings/").status_code == 200  # cached in Redis now
    # Redis unreachable (but keeping its data, as after a network split).
    for _ in range(redis_health.FAILURES_TO_BE_DOWN):
        redis_health.failed(ConnectionError("Redis is down"))
    assert client.post("/accounts/logout/").status_code == 302
    assert not Session.objects.filter(session_key=key).exists()
    deadline = time.monotonic() + redis_health.DOWN_SECONDS + 5
    while not redis_health.available():
        assert time.monotonic() < deadline
    client.cookies["sessionid"] = key
    assert client.get("/settings/").status_code == 302  # to the login page


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore::django.core.cache.CacheKeyWarning")  # Django's, for memcached
def test_djangos_own_store_fails_the_query_for_a_key_holding_a_nul() -> None:
    # The defect accounts/sessions.py works around: Django checks only a
    # key's length, and PostgreSQL refuses a NUL in any query.
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL refuses a NUL")
    try:
        with transaction.atomic():
            cached_db.SessionStore(NUL_KEY).load()
    except (ValueError, DataError) as exc:  # psycopg refuses the parameter
        assert "NUL" in str(exc)
    else:
        pytest.skip("Django now finds no session for such a key: the check can go")


@pytest.mark.django_db
@pytest.mark.parametrize("key", [NUL_KEY, "a" * 41, "short", "a" * 31 + "-", None])
def test_a_key_this_store_could_not_have_made_is_no_session(key: str | None) -> None:
    store = SessionStore(key)
    assert store.session_key is None
    assert store.load() == {}
    store["seen"] = True
    store.save()  # a new session, with a key of the store's own
    assert store.session_key and store.session_key != key


@pytest.mark.django_db
def test_a_key_the_store_made_still_finds_its_session() -> None:
    store = SessionStore()
    store["seen"] = True
    store.save()
    assert SessionStore(store.session_key).load() == {"seen": True}
