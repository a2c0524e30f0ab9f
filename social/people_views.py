"""Follow, bell, mute and block: POSTs from a profile (or a chat line, a
message) to ``/u/<username>/<verb>``. Thin: ``people.services`` writes and
raises ``people.errors``; the answer goes back to a safe local ``next`` or
the profile, and an htmx caller gets the refreshed buttons instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.profile import relation_context
from people import services
from people.errors import PeopleError
from social.redirects import safe_next

Do = Callable[[Any, Any], Any]

# What each verb does, and what it says once done (``name``: the other person).
VERBS: dict[str, tuple[Do, Any]] = {
    "follow": (services.do_follow, gettext_lazy("You follow %(name)s.")),
    "unfollow": (services.do_unfollow, gettext_lazy("You no longer follow %(name)s.")),
    "block": (
        services.do_block,
        gettext_lazy("You blocked %(name)s. They are not told."),
    ),
    "unblock": (services.do_unblock, gettext_lazy("You unblocked %(name)s.")),
    "mute": (
        services.do_mute,
        gettext_lazy("You muted %(name)s: their chat is hidden from you."),
    ),
    "unmute": (services.do_unmute, gettext_lazy("You unmuted %(name)s.")),
}


def _next(request: HttpRequest, player: User) -> str:
    return safe_next(request, reverse("profile", args=[player.username]))


def _answer(request: HttpRequest, player: User, said: str, *, error: bool = False) -> HttpResponse:
    if getattr(request, "htmx", False):
        context = {**relation_context(request.user, player), "next_url": _next(request, player)}
        # No page load follows, so the fragment says what was done.
        context["relation_error" if error else "relation_said"] = said
        return render(
            request, "social/relation_buttons.html", context, status=422 if error else 200
        )
    (messages.error if error else messages.success)(request, said)
    return redirect(_next(request, player))


def _player(username: str) -> User:
    return get_object_or_404(User, username=username, is_active=True)


def _verb(name: str) -> Callable[[HttpRequest, str], HttpResponse]:
    do, said = VERBS[name]

    @login_required
    @require_POST
    def view(request: HttpRequest, username: str) -> HttpResponse:
        player = _player(username)
        try:
            do(request.user, player)
        except PeopleError as exc:
            return _answer(request, player, exc.message, error=True)
        return _answer(request, player, str(said) % {"name": player.public_name})

    view.__name__ = name
    view.__qualname__ = name
    return view


follow = _verb("follow")
unfollow = _verb("unfollow")
block = _verb("block")
unblock = _verb("unblock")
mute = _verb("mute")
unmute = _verb("unmute")


@login_required
@require_POST
def bell(request: HttpRequest, username: str) -> HttpResponse:
    """``on`` = 1 or 0: tell me (or stop telling me) when they start a game."""
    player = _player(username)
    on = request.POST.get("on", "")
    if on not in ("0", "1"):
        return _answer(
            request, player, _("Choose whether to be told: on (1) or off (0)."), error=True
        )
    try:
        services.do_set_bell(request.user, player, on=on == "1")
    except PeopleError as exc:
        return _answer(request, player, exc.message, error=True)
    said = (
        _("You will be told when %(name)s starts a game (once a day at most).")
        if on == "1"
        else _("You will no longer be told when %(name)s starts a game.")
    )
    return _answer(request, player, said % {"name": player.public_name})
