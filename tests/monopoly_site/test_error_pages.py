"""The site's own pages for an unknown address, a server error and a post
that failed the CSRF check (DEBUG is off in tests, as in production)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_debug_is_off_as_in_production() -> None:
    assert settings.DEBUG is False  # else Django's debug pages would answer


@pytest.mark.parametrize("url", ["/games/nosuchgame/", "/no/such/page/"])
def test_an_unknown_address_gets_the_sites_own_404(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    body = response.content.decode()
    assert "Nothing here" in body
    assert 'class="site-nav"' in body and 'href="/lobby/"' in body


def test_the_404_page_shows_whoever_is_logged_in(client: Client) -> None:
    client.force_login(User.objects.create_user("ada", "ada@example.com", "pw-ada-12345"))
    assert 'href="/u/ada/"' in client.get("/games/nosuchgame/").content.decode()


def test_the_500_page_renders_with_no_context_and_no_database(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    with django_assert_num_queries(0):
        html = render_to_string("500.html")
    assert "Something went wrong" in html and "/static/css/site.css" in html
    assert "{%" not in html and "{{" not in html


def test_a_post_without_its_token_tells_to_reload_the_page() -> None:
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(User.objects.create_user("ada", "ada@example.com", "pw-ada-12345"))
    response = csrf_client.post(
        "/notifications/read", headers={"Referer": "http://testserver/notifications/"}
    )
    assert response.status_code == 403
    body = response.content.decode()
    assert "Reload the page" in body and 'class="site-nav"' in body
    assert 'href="/u/ada/"' in body  # rendered for the person, not as a stranger
    assert 'href="http://testserver/notifications/"' in body


def test_a_forged_posts_page_is_not_offered_as_the_way_back() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/notifications/read", headers={"Referer": "https://evil.example/x"})
    assert response.status_code == 403
    assert "evil.example" not in response.content.decode()


def test_an_htmx_post_without_its_token_reloads_the_page() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/notifications/read", headers={"HX-Request": "true"})
    assert response.status_code == 403
    assert response["HX-Refresh"] == "true"
