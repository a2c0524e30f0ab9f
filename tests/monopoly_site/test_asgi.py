"""Django's own ASGI handler runs ``request_started``, the middleware, the
view and ``request_finished`` on the one thread ``monopoly_site.asgi`` lends
the request, and sends the signal once per request, on every path."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import HttpCommunicator
from django.core import signals
from django.http import HttpRequest, HttpResponse
from django.test import override_settings
from django.urls import path

from monopoly_site import asgi
from monopoly_site.asgi import django_asgi_app
from tests.live.conftest import run

seen: list[tuple[str, int]] = []


def record_view(request: HttpRequest) -> HttpResponse:
    seen.append(("view", threading.get_ident()))
    return HttpResponse("ok")


busy = {"now": 0, "most": 0}
busy_lock = threading.Lock()


def slow_view(request: HttpRequest) -> HttpResponse:
    with busy_lock:
        busy["now"] += 1
        busy["most"] = max(busy["most"], busy["now"])
    seen.append(("slow", threading.get_ident()))
    time.sleep(0.05)  # a view holding its thread (a database round trip)
    with busy_lock:
        busy["now"] -= 1
    return HttpResponse("ok")


urlpatterns = [path("record", record_view), path("slow", slow_view)]


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


def test_requests_share_a_few_long_lived_threads(
    started: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve requests at once on a pool of two: never more than two run,
    every one is answered, and each runs its request_started, view and
    request_finished on the thread it was lent."""
    monkeypatch.setattr(asgi, "request_threads", asgi.RequestThreads(2))
    busy.update(now=0, most=0)
    finished: list[int] = []

    def on_finished(**kwargs: Any) -> None:
        finished.append(threading.get_ident())

    async def scenario() -> list[Any]:
        communicators = [HttpCommunicator(django_asgi_app, "GET", "/slow") for _ in range(12)]
        return await asyncio.gather(*(c.get_response(timeout=10) for c in communicators))

    signals.request_finished.connect(on_finished, weak=False)
    try:
        responses = run(scenario)
    finally:
        signals.request_finished.disconnect(on_finished)
    assert [r["status"] for r in responses] == [200] * 12
    assert busy["most"] == 2
    threads = {ident for name, ident in started if name == "slow"}
    assert len(threads) == 2
    assert {ident for name, ident in started if name == "started"} == threads
    assert set(finished) == threads
    assert threading.get_ident() not in threads
