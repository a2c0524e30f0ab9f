"""Posting to a game's chat (reading happens through the page and the socket),
and the /watch/ list of live games."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from common import ratelimit, redis_health
from common.unavailable import unavailable_response
from games.access import access_game_for_viewer
from live.chat import ChatError, do_post_message
from live.watch import SORTS, finished_rows, hidden_win_bars, hide_win_bars, watch_rows

# Chat is pushed through Redis: without it a message would be stored and
# seen by nobody until they reload, so it is refused instead (issue 15).
UNAVAILABLE = "Chat is unavailable for a moment; your message was not sent. Try again shortly."
RETRY_AFTER = 5  # seconds


@login_required
@require_POST
def post_message(request: HttpRequest, public_id: str, room: str) -> HttpResponse:
    viewing = access_game_for_viewer(request, public_id, started=True)
    game, seat = viewing.game, viewing.seat
    try:
        ratelimit.hit(request, "chat")
    except ratelimit.RateLimited as exc:
        if not request.htmx:  # type: ignore[attr-defined]
            return ratelimit.too_many(request, exc, game.get_absolute_url())
        # The page's htmx config swaps a 429 in, like the 422 below.
        return ratelimit.with_retry_after(HttpResponse(exc.message, status=429), exc)
    if not redis_health.available():
        return unavailable_response(
            request,
            UNAVAILABLE,
            back=game.get_absolute_url(),
            retry_after=RETRY_AFTER,
            full_page=True,
        )
    try:
        message = do_post_message(
            game=game, seat=seat, user=request.user, room=room, body=request.POST.get("body", "")
        )
    except ChatError as exc:
        if not request.htmx:  # type: ignore[attr-defined]
            messages.error(request, exc.message)
            return HttpResponseRedirect(game.get_absolute_url())
        return HttpResponse(exc.message, status=exc.status)
    if not request.htmx:  # type: ignore[attr-defined]
        return HttpResponseRedirect(game.get_absolute_url())
    if getattr(request.user, "shadow_muted", False):
        # Pushed to nobody (live.chat.push_message): its author sees it here.
        context = {"message": message, "room": message.room}
        return HttpResponse(render_to_string("live/chat_append.html", context))
    return HttpResponse("")


@require_GET
def watch(request: HttpRequest) -> HttpResponse:
    sort = request.GET.get("sort", "recent")
    if sort not in SORTS:
        sort = "recent"
    rows = watch_rows(sort)
    rows = hide_win_bars(rows, hidden_win_bars(rows, request.user))
    context = {"rows": rows, "sort": sort, "sorts": SORTS}
    return render(request, "games/watch.html", context)


@require_GET
def watch_finished(request: HttpRequest) -> HttpResponse:
    """The Finished tab: recent public games that have ended."""
    context = {"page": finished_rows(request.GET.get("page")), "sorts": SORTS, "tab": "finished"}
    return render(request, "games/watch.html", context)
