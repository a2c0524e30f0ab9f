from __future__ import annotations

import pytest
from django.test import Client, override_settings

from monopoly_site.localservices import free_port


@pytest.mark.django_db
def test_healthz_reports_ok_when_database_and_redis_answer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["redis"] == "ok"


@pytest.mark.django_db
def test_healthz_returns_503_when_redis_is_down(client: Client) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    cache_settings = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": dead}
    }
    with override_settings(REDIS_URL=dead, CACHES=cache_settings):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["redis"].startswith("error")
    assert body["database"] == "ok"


def test_healthz_rejects_post(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
