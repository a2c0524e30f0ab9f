"""Bot accounts play only through the API: the pages' game writes refuse
them, with a message that says where to go instead."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.html import format_html

from games.bot_accounts import is_bot_account

MESSAGE = (
    "This is a bot account: it plays only through the API (/api/v1/, with a token of the "
    "bot scope), not on the game pages."
)


def refused(request: HttpRequest, back: str) -> HttpResponse:
    if getattr(request, "htmx", False):
        return HttpResponse(
            format_html('<p class="error" role="alert">{}</p>', MESSAGE), status=403
        )
    messages.error(request, MESSAGE)
    return HttpResponseRedirect(back)


def api_only_for_bots(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuse the view to a bot account, back to the game's page (or the lobby)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if is_bot_account(request.user):
            public_id = kwargs.get("public_id")
            return refused(request, f"/games/{public_id}/" if public_id else "/lobby/")
        return view(request, *args, **kwargs)

    return wrapped
