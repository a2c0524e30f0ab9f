"""The inbox pages: the list of conversations, and one conversation with
its form. Thin: ``social.messages`` decides and writes; a refusal's words
are shown and nothing is stored."""

from __future__ import annotations

from typing import Any

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from common import ratelimit
from people.errors import PeopleError
from social import live, messages, reads
from social.models import MAX_LENGTH


def find_person(username: str) -> Any:
    from accounts.models import User

    return User.objects.filter(username=username, is_active=True).first()


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    return render(request, "social/inbox.html", {"rows": reads.inbox_rows(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def conversation(request: HttpRequest, username: str) -> HttpResponse:
    user: Any = request.user
    other = find_person(username)
    if other is None:
        raise Http404(_("There is no such player."))
    if other.pk == user.pk:
        flash.error(request, _("You cannot write to yourself."))
        return redirect("inbox")
    if request.method == "POST":
        return _send(request, other)
    found = reads.conversation_between(user, other)
    before = request.GET.get("before", "")
    older = int(before) if before.isascii() and before.isdigit() and len(before) < 19 else None
    shown = reads.page_of(found, before=older) if found else []
    if found is not None and messages.do_mark_read(user, found):
        live.push_unread(user.pk)
    refusal = ""
    try:
        messages.check_may_send(user, other)
    except PeopleError as exc:
        refusal = exc.message
    context = {
        "other": other,
        "viewer": user,
        "thread": shown,
        "older": shown[0].pk if len(shown) >= reads.PAGE else None,
        "paged": older is not None,
        "refusal": refusal,
        "max_length": MAX_LENGTH,
    }
    return render(request, "social/conversation.html", context)


def _send(request: HttpRequest, other: Any) -> HttpResponse:
    back = reverse("conversation", args=[other.username])
    htmx = bool(getattr(request, "htmx", False))
    try:
        ratelimit.hit(request, "message")
    except ratelimit.RateLimited as exc:
        if not htmx:
            return ratelimit.too_many(request, exc, back)
        return ratelimit.with_retry_after(HttpResponse(exc.message, status=429), exc)
    try:
        sent = messages.do_send_message(request.user, other, request.POST.get("text", ""))
    except PeopleError as exc:
        if htmx:
            return HttpResponse(exc.message, status=exc.status)
        flash.error(request, exc.message)
        return redirect(back)
    if not htmx:
        return redirect(back)
    # The sent message, appended at once; the socket's copy of it is dropped
    # by its id (static/js/inbox.js).
    html = render_to_string(
        "social/message_append.html",
        {"thread": [sent], "viewer": request.user, "other": other},
        request=request,
    )
    return HttpResponse(html)
