"""Django's ASGI handler with ``request_started``, the middleware and the
view run in one thread hop.

It replaces Django's private ``_middleware_chain`` and copies Django 5.2's
``ASGIHandler.handle`` (whose ``request_started`` it must not send twice).
In ``make bench-live`` on the shared 2-core VM (2026-11-26 22:06-22:14 UTC),
without it the median push was 1.6 ms later (median of seven paired rounds)
and met the 15 ms target in one round of ten; with it, four of seven
(docs/patches.md).
``tests/common/test_patches.py`` fails when Django's ``handle`` or
``load_middleware`` is not the code this was copied from and checked
against (``TESTED``, ``HANDLE_SHA256``, ``LOAD_MIDDLEWARE_SHA256``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.urls import set_script_prefix

# What this was copied from and tested against.
TESTED = {"django": "5.2.19"}
HANDLE_SHA256 = "98faeb5bef800331e6a8002fbc96b30e4122a23438ae45a047190a531ea11323"
LOAD_MIDDLEWARE_SHA256 = "a1fb7ee5f8586195da2174d1bbc2bbfc7ca19b9d26ea66412cb434f45bf6d467"


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler, with ``request_started``, the middleware and
    the view run in one hop to the request's sync thread. Every middleware
    and view here is sync; Django's async chain still enters the thread for
    the middleware, comes back to the event loop for its inner handler and
    enters the thread again for the view, and before that it enters the
    thread once more for ``request_started``'s sync receivers (which close
    stale database connections). Each hop is a wait for the other side:
    about half a millisecond of a move's time on a busy two-core machine.
    This is WSGI's sync chain (which adapts any async view or middleware
    itself), run as one thread-sensitive call that first sends the signal."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        handler: Any = self  # Django's attribute, which its type stubs leave out
        chain = handler._middleware_chain
        sender = type(self)

        def started_then_chain(request: Any) -> Any:
            signals.request_started.send(sender=sender, scope=request.scope)
            return chain(request)

        handler._middleware_chain = sync_to_async(started_then_chain, thread_sensitive=True)

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        """Django 5.2's ``handle``, except that ``request_started`` is sent
        by the middleware chain's hop (above); only a request that fails
        before reaching the chain sends it from here, as Django does."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        async with self.request_context():
            await self._handle(scope, receive, send, body_file)

    def request_context(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """Around the request once its body is in (``monopoly_site.asgi``
        lends it one of its threads)."""
        return contextlib.nullcontext()

    async def _handle(self, scope: Any, receive: Any, send: Any, body_file: Any) -> None:
        set_script_prefix(get_script_prefix(scope))
        request, error_response = self.create_request(scope, body_file)
        if request is None or error_response is not None:
            assert error_response is not None
            await signals.request_started.asend(sender=self.__class__, scope=scope)
            body_file.close()
            await self.send_response(error_response, send)
            await sync_to_async(error_response.close)()
            return

        async def process_request(request: Any, send: Any) -> Any:
            response = await self.run_get_response(request)
            # The client may go away while the response is sent.
            with contextlib.suppress(asyncio.CancelledError):
                await self.send_response(response, send)
            return response

        # As Django: the disconnect listener first, so that its errors cannot
        # keep the request from being cancelled.
        tasks = [
            asyncio.create_task(self.listen_for_disconnect(receive)),
            asyncio.create_task(process_request(request, send)),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done():
                try:
                    task.result()
                except RequestAborted:
                    pass
                except AssertionError:
                    body_file.close()
                    raise
            else:
                task.cancel()  # views may handle the cancellation
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        try:
            response = tasks[1].result()
        except asyncio.CancelledError:
            await signals.request_finished.asend(sender=self.__class__)
        else:
            await sync_to_async(response.close)()
        body_file.close()
