from __future__ import annotations

import asyncio
import contextlib
import gc
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import django
from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "monopoly_site.settings")


class RequestThreads:
    """A few long-lived threads, each lent to one request at a time.

    Django runs each request's sync code in a thread started for it (in its
    own ``ThreadSensitiveContext``), and asgiref starts a second thread to
    join the first when the request ends. Starting a thread blocks the event
    loop until the new thread has taken the GIL, which under load means
    waiting out every busy thread: in ``make bench-load`` (200 games) the
    loop spent more than half its time in ``Thread.start``, and a hundred
    request threads per process took turns on the GIL while most of them
    waited for one of the database pool's connections (and, after 10 s,
    failed). Here a request waits for a free thread on the event loop,
    where waiting costs nothing, and every thread-sensitive call it makes
    (the middleware and view, ``request_finished``, ``response.close``)
    runs on the thread it was lent: asgiref's ``ThreadSensitiveContext``
    with an executor of one thread, its public way to do this."""

    def __init__(self, size: int | None = None) -> None:
        self.size = size  # None: settings.REQUEST_THREADS
        # One queue per event loop (a server has one; tests start several).
        self._free: dict[asyncio.AbstractEventLoop, asyncio.Queue[ThreadPoolExecutor]] = {}

    def _queue(self) -> asyncio.Queue[ThreadPoolExecutor]:
        loop = asyncio.get_running_loop()
        queue = self._free.get(loop)
        if queue is None:
            for closed in [other for other in self._free if other.is_closed()]:
                for executor in _drain(self._free.pop(closed)):
                    executor.shutdown(wait=False)
            queue = self._free[loop] = asyncio.Queue()
            from django.conf import settings

            for _ in range(self.size or settings.REQUEST_THREADS):
                queue.put_nowait(ThreadPoolExecutor(1, thread_name_prefix="request"))
        return queue

    @contextlib.asynccontextmanager
    async def lend(self) -> AsyncIterator[ThreadPoolExecutor]:
        queue = self._queue()
        executor = await queue.get()
        try:
            yield executor
        finally:
            # A view still running after its request was cancelled (the
            # client went away) keeps the thread busy: the next request's
            # calls queue behind it on that thread, in order.
            queue.put_nowait(executor)


def _drain(queue: asyncio.Queue[ThreadPoolExecutor]) -> list[ThreadPoolExecutor]:
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


class LentThreads:
    """Django's own ASGI handler, each request's sync code on a thread lent
    by ``request_threads``. Django enters a ``ThreadSensitiveContext`` of
    its own only where none is set; this one, entered around it with its
    executor, carries every thread-sensitive call of the request
    (``request_started``, the middleware and view, ``request_finished``,
    ``response.close``) to the lent thread. Daphne calls the application
    once the body is in, so the thread is not held while it uploads."""

    def __init__(self, handler: ASGIHandler) -> None:
        self.handler = handler

    async def __call__(
        self,
        scope: dict[str, object],
        receive: Callable[[], Awaitable[Mapping[str, object]]],
        send: Callable[[Mapping[str, object]], Awaitable[None]],
    ) -> None:
        # The module's pool, read per request: tests swap in a smaller one.
        async with request_threads.lend() as executor, ThreadSensitiveContext(executor=executor):
            await self.handler(scope, receive, send)


request_threads = RequestThreads()


def get_asgi_application() -> LentThreads:
    django.setup(set_prefix=False)
    return LentThreads(ASGIHandler())


# This server process pools its database connections (settings.py says why);
# the variable is removed again so that nothing started from here inherits it.
_pool = "DATABASE_POOL" not in os.environ
if _pool:
    os.environ["DATABASE_POOL"] = "true"
# Django must be set up before anything imports models (consumers, routing).
django_asgi_app = get_asgi_application()
if _pool:
    del os.environ["DATABASE_POOL"]

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

from monopoly_site.badinput import RefuseControlCharactersSocket  # noqa: E402
from monopoly_site.origin import SameOriginValidator  # noqa: E402
from monopoly_site.routing import NO_ROUTE, stream_urlpatterns, websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": URLRouter([*stream_urlpatterns, re_path(r"", cast(Any, django_asgi_app))]),
        # Not Channels' AllowedHostsOriginValidator: it compares host names
        # only (monopoly_site/origin.py).
        "websocket": SameOriginValidator(
            RefuseControlCharactersSocket(
                AuthMiddlewareStack(URLRouter([*websocket_urlpatterns, NO_ROUTE]))
            )
        ),
    }
)


def warm_up() -> None:
    """What the first moves after a start would otherwise pay for, once.

    Templates compile on their first use, and the play page's partials
    include others (the action forms, the players, the chat); this process's
    Redis clients (the cache that sessions are read through, the
    broadcast's presence reads, the pushes' publisher) connect on their first
    command. In bench-live the first move's presence read took about 3 ms
    instead of 0.5 ms, and its answer tens of ms. Nothing here is required:
    a failure is logged and the server starts anyway."""
    import logging

    from django.core.cache import cache
    from django.template.loader import get_template

    from live import fanout, presence

    logger = logging.getLogger(__name__)
    for name in WARM_TEMPLATES:
        try:
            get_template(name)
        except Exception:
            logger.warning("Could not compile %s at start-up", name, exc_info=True)
    try:
        cache.get("warm-up")
        presence.listening(0)
        fanout.connect()
    except Exception:
        logger.warning("Could not reach Redis at start-up", exc_info=True)


WARM_TEMPLATES = (
    "games/game.html",
    "games/play/action_form.html",
    "games/play/actions_body.html",
    "games/play/deadlines.html",
    "games/play/holdings.html",
    "games/play/player.html",
    "games/play/standing_orders.html",
    "games/play/terms.html",
    "games/play/trade_form.html",
    "games/play/trade_side.html",
    "games/lobby.html",
    "games/watch.html",
    "live/chat.html",
    "live/chat_message.html",
    "live/presence.html",
)

warm_up()

# What is loaded by now (Django, the apps, the URL and routing tables) lives as
# long as the server: keep it out of the collector's full passes. Each of those
# walked all of it, 80-115 ms on the 2-core VM (a few per bench-live run), a
# stall for every push under way; with this, 10-25 ms.
gc.freeze()
