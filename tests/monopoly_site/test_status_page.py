"""The footer's Status link opens a page for people; /healthz stays JSON for
monitors."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from monopoly_site.localservices import free_port

pytestmark = pytest.mark.django_db


def test_the_footer_links_to_a_status_page_in_words(client: Client) -> None:
    home = client.get("/").content.decode()
    assert 'href="/status/"' in home and 'href="/healthz"' not in home
    response = client.get("/status/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "<strong>Database</strong>: working" in body
    assert "<strong>Redis</strong>: working" in body
    assert 'href="/healthz"' in body  # the JSON, for machines


def test_the_status_page_says_what_is_down(client: Client) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    cache_settings = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": dead}
    }
    with override_settings(REDIS_URL=dead, CACHES=cache_settings):
        response = client.get("/status/")
    assert response.status_code == 503
    body = response.content.decode()
    assert "<strong>Redis</strong>: not working" in body
    assert "Part of the site is not working" in body
