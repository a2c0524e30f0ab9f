"""The ASGI handler runs ``request_started``, the middleware and the view in
one hop to the request's thread, and still sends the signal once per request
as Django does, on every path."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import HttpCommunicator
from django.core import signals
from django.http import HttpRequest, HttpResponse
from django.test import override_settings
from django.urls import path

from monopoly_site.asgi import django_asgi_app
from tests.live.conftest import run

seen: list[tuple[str, int]] = []


def record_view(request: HttpRequest) -> HttpResponse:
    seen.append(("view", threading.get_ident()))
    return HttpResponse("ok")


urlpatterns = [path("record", record_view)]


@pytest.fixture
def started() -> Iterator[list[tuple[str, int]]]:
    def receiver(**kwargs: Any) -> None:
        assert "scope" in kwargs
        seen.append(("started", threading.get_ident()))

    seen.clear()
    signals.request_started.connect(receiver, weak=False)
    try:
        with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["*"]):
            yield seen
    finally:
        signals.request_started.disconnect(receiver)


def get(path_: str, query: bytes = b"") -> Any:
    async def scenario() -> Any:
        communicator = HttpCommunicator(django_asgi_app, "GET", path_)
        communicator.scope["query_string"] = query
        return await communicator.get_response(timeout=10)

    return run(scenario)


def test_request_started_is_sent_once_in_the_views_thread(started: list[Any]) -> None:
    response = get("/record")
    assert response["status"] == 200
    assert [name for name, _ in started] == ["started", "view"]
    assert started[0][1] == started[1][1]


def test_each_request_sends_request_started(started: list[Any]) -> None:
    get("/record")
    get("/record")
    assert [name for name, _ in started] == ["started", "view", "started", "view"]


def test_a_request_refused_before_the_middleware_still_sends_it(started: list[Any]) -> None:
    response = get("/record", query=b"\xff")  # not UTF-8: Django answers 400 itself
    assert response["status"] == 400
    assert [name for name, _ in started] == ["started"]


def test_daphne_leaves_the_form_body_to_django() -> None:
    """Twisted would parse every POST's form body for Daphne, which never
    reads it (Django parses the body it is passed)."""
    from daphne.http_protocol import WebRequest

    assert WebRequest._parsePOSTFormSubmission is False
