"""The club chat's POSTs: a member's line, a leader's deletion, a member's
report. Reading happens through the club page and its socket."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import chat, chatpane
from clubs.errors import ClubError
from clubs.views import club_or_404, club_url
from common import ratelimit, redis_health
from common.unavailable import unavailable_response
from live.views import RETRY_AFTER


@login_required
@require_POST
def post_line(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    htmx = bool(getattr(request, "htmx", False))
    try:
        ratelimit.hit(request, "chat")
    except ratelimit.RateLimited as exc:
        if not htmx:
            return ratelimit.too_many(request, exc, club_url(club))
        return ratelimit.with_retry_after(HttpResponse(exc.message, status=429), exc)
    if not redis_health.available():
        # Pushed through Redis: without it nobody would see the line.
        return unavailable_response(
            request,
            _("Chat is unavailable for a moment; your line was not sent. Try again shortly."),
            back=club_url(club),
            retry_after=RETRY_AFTER,
            full_page=True,
        )
    try:
        line = chat.do_post_line(club=club, user=request.user, text=request.POST.get("text", ""))
    except ClubError as exc:
        if not htmx:
            messages.error(request, exc.message)
            return HttpResponseRedirect(club_url(club))
        return HttpResponse(exc.message, status=exc.status)
    if not htmx:
        return HttpResponseRedirect(club_url(club) + "#club-chat")
    if getattr(request.user, "shadow_muted", False):
        # Pushed to nobody (clubs.live.push_line): its author sees it here.
        html = chatpane.line_html(line, viewer_id=request.user.pk, leader=False)
        return HttpResponse(html)
    return HttpResponse("")


@login_required
@require_POST
def delete_line(request: HttpRequest, slug: str, line_id: int) -> HttpResponse:
    club = club_or_404(slug)
    try:
        chat.do_delete_line(club=club, leader=request.user, line_id=line_id)
    except ClubError as exc:
        messages.error(request, exc.message)
        return HttpResponseRedirect(club_url(club))
    messages.success(request, _("The line is deleted."))
    return HttpResponseRedirect(club_url(club) + "#club-chat")


@login_required
@require_POST
def report_line(request: HttpRequest, slug: str, line_id: int) -> HttpResponse:
    club = club_or_404(slug)
    try:
        ratelimit.hit(request, "report")
        chat.do_report_line(
            club=club,
            reporter=request.user,
            line_id=line_id,
            reason=request.POST.get("reason", ""),
            text=request.POST.get("text", ""),
        )
    except ratelimit.RateLimited as exc:
        messages.error(request, exc.message)
        return HttpResponseRedirect(club_url(club))
    except ClubError as exc:
        messages.error(request, exc.message)
        return HttpResponseRedirect(club_url(club))
    messages.success(request, _("Thank you: your report was sent to the site's moderators."))
    return HttpResponseRedirect(club_url(club) + "#club-chat")
