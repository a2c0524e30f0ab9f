"""A view whose database or Redis connection fails answers 503 with a clear
message and a Retry-After, never a 500."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client
from redis.exceptions import ConnectionError as RedisConnectionError

from common.unavailable import MESSAGE

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "failure",
    [OperationalError("terminating connection due to administrator command"),
     RedisConnectionError("Connection refused")],
)  # fmt: skip
def test_a_lost_connection_is_a_503_page_with_the_message(client: Client, failure: Any) -> None:
    with mock.patch("monopoly_site.views.render", side_effect=failure):
        response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "Unavailable for a moment" in response.content.decode()
    assert "lost its connection" in response.content.decode()


def test_a_lost_connection_under_htmx_is_the_message_alone(client: Client) -> None:
    with mock.patch("monopoly_site.views.render", side_effect=OperationalError("gone")):
        response = client.get("/", headers={"HX-Request": "true"})
    assert response.status_code == 503
    assert response.content.decode() == MESSAGE


def test_other_errors_are_left_to_django(client: Client) -> None:
    client.raise_request_exception = True
    with (
        mock.patch("monopoly_site.views.render", side_effect=ValueError("a bug")),
        pytest.raises(ValueError),
    ):
        client.get("/")


def test_a_lost_connection_in_a_middleware_is_a_503_too(
    client: Client, django_user_model: Any
) -> None:
    # The signed-in user is first read by the site's middleware, before
    # any view (and outside ServiceUnavailableMiddleware).
    client.force_login(django_user_model.objects.create_user("alice", "a@example.com", "pw"))
    client.raise_request_exception = False
    with mock.patch(
        "django.contrib.auth.middleware.auth.get_user",
        side_effect=OperationalError("terminating connection due to administrator command"),
    ):
        response = client.get("/")
    assert response.status_code == 503
    assert "lost its connection" in response.content.decode()


def test_other_errors_outside_a_view_are_still_a_500(
    client: Client, django_user_model: Any
) -> None:
    client.force_login(django_user_model.objects.create_user("alice", "a@example.com", "pw"))
    client.raise_request_exception = False
    with mock.patch("django.contrib.auth.middleware.auth.get_user", side_effect=ValueError("bug")):
        response = client.get("/")
    assert response.status_code == 500
