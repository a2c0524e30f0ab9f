"""A 503 with a clear message, never a 500, when the database or Redis
fails under a request (a connection terminated, a restart in progress).

Each action is one transaction, so a failure before its commit changed
nothing, and the client may send it again with the same expected version:
if it had in fact been applied, the version check refuses the copy.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views import defaults
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RETRY_AFTER = 2  # seconds
MESSAGE = (
    "The site lost its connection to a server for a moment. Try again; if you made a "
    "move, reload the game to see whether it was saved."
)
FAILURES = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's ``handler500``. A lost connection raised outside a view
    (the user read by a middleware, the session saved after the view)
    never reaches ``ServiceUnavailableMiddleware``: Django turns it into a
    500 at the middleware where it happened, through this handler, which
    answers the same 503 for it. Django's handler calls it inside its
    ``except``, so the exception is still the one being handled."""
    return failure_response(request, sys.exc_info()[1]) or defaults.server_error(request)


def failure_response(request: HttpRequest, exc: BaseException | None) -> HttpResponse | None:
    """The 503 for a lost connection; None for anything else."""
    if not isinstance(exc, FAILURES):
        return None
    logger.warning("503 for %s %s: %s", request.method, request.path, exc)
    return unavailable_response(request)


class ServiceUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        # A view's failure, answered here rather than by server_error: that
        # also works with DEBUG on, and is not logged as a server error.
        return failure_response(request, exc)


def unavailable_response(
    request: HttpRequest,
    message: str = MESSAGE,
    *,
    back: str = "",
    retry_after: int = RETRY_AFTER,
    full_page: bool = False,
) -> HttpResponse:
    """The site's one 503: the message alone for htmx (the page's htmx
    config swaps it in, like a 429), else a page. ``full_page`` (the site's
    layout, with ``back`` as a link) only where the database still answers:
    the layout's context processors read it. A page that cannot be rendered
    falls back to the plain one, and that to the bare message."""
    if getattr(request, "htmx", False):
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    else:
        body: str
        try:
            if full_page:
                body = render_to_string(
                    "503.html", {"message": message, "back": back}, request=request
                )
            else:
                # No request context: its processors may need the server that failed.
                body = render_to_string("503_plain.html", {"message": message})
        except Exception:
            body = message
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(retry_after)
    return response
