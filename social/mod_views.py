"""Reporting a person, and the moderation queue (docs/moderation.md).

The queue's pages are for moderators only (``people.moderate``, given by
the "Moderators" group); to anyone else signed in they do not exist (404).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common import ratelimit
from common.numbers import whole_number
from people.errors import PeopleError
from people.models import Report
from social import moderation
from social.casefile import case_file
from social.redirects import safe_next
from social.reports import PERSON_SOURCES, do_report


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, username: str) -> HttpResponse:
    reported = get_object_or_404(get_user_model(), username=username, is_active=True)
    profile = reverse("profile", kwargs={"username": reported.username})
    if request.method == "GET":
        context = {
            "target": reported,
            "source": request.GET.get("source", "profile"),
            "ref": request.GET.get("ref", ""),
            "next": safe_next(request, profile),
            "reasons": Report.Reason.choices,
            "sources": PERSON_SOURCES,
        }
        return render(request, "social/report.html", context)
    back = safe_next(request, profile)
    htmx = bool(getattr(request, "htmx", False))
    try:
        ratelimit.hit(request, "report")
        do_report(
            reporter=request.user,
            reported=reported,
            reason=request.POST.get("reason", ""),
            source=request.POST.get("source", "profile"),
            ref=request.POST.get("ref", ""),
            text=request.POST.get("text", ""),
            session=request.session,
        )
    except ratelimit.RateLimited as exc:
        if htmx:
            return ratelimit.with_retry_after(HttpResponse(exc.message, status=429), exc)
        messages.error(request, exc.message)
        return HttpResponseRedirect(back)
    except PeopleError as exc:
        if htmx:
            return HttpResponse(exc.message, status=422)
        messages.error(request, exc.message)
        return HttpResponseRedirect(back)
    thanks = _("Thank you: your report was sent. We will tell you what came of it.")
    if htmx:
        return HttpResponse(thanks)
    messages.success(request, thanks)
    return HttpResponseRedirect(back)


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    moderation.access_moderator(request)
    return render(request, "social/mod_queue.html", {"rows": moderation.queue()})


@login_required
@require_GET
def case_page(request: HttpRequest, case_id: int) -> HttpResponse:
    moderator = moderation.access_moderator(request)
    case = moderation.case_for(case_id)
    context: dict[str, Any] = {
        **case_file(case),
        "mine": case.claimed_by_id == moderator.pk,
        "actions": [(k, moderation.Kind(k).label) for k in moderation.ACTIONS],
        "max_hours": moderation.MAX_HOURS,
    }
    return render(request, "social/mod_case.html", context)


@login_required
@require_POST
def claim(request: HttpRequest, case_id: int) -> HttpResponse:
    moderator = moderation.access_moderator(request)
    moderation.case_for(case_id)  # 404 before anything else
    try:
        moderation.do_claim_case(case_id, moderator)
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You hold this case now."))
    return HttpResponseRedirect(reverse("mod_case", kwargs={"case_id": case_id}))


@login_required
@require_POST
def act(request: HttpRequest, case_id: int) -> HttpResponse:
    moderator = moderation.access_moderator(request)
    moderation.case_for(case_id)
    here = reverse("mod_case", kwargs={"case_id": case_id})
    try:
        action = moderation.do_act(
            case_id,
            moderator,
            request.POST.get("kind", ""),
            request.POST.get("reason", ""),
            request.POST.get("hours"),
        )
    except PeopleError as exc:
        messages.error(request, exc.message)
        return HttpResponseRedirect(here)
    messages.success(
        request, _("Done: %(action)s. The case is closed.") % {"action": action.get_kind_display()}
    )
    return HttpResponseRedirect(here)


@login_required
@require_POST
def release(request: HttpRequest, case_id: int) -> HttpResponse:
    moderator = moderation.access_moderator(request)
    moderation.case_for(case_id)
    try:
        moderation.do_release_case(case_id, moderator)
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The case is back in the queue."))
    return HttpResponseRedirect(reverse("mod_case", kwargs={"case_id": case_id}))


@login_required
@require_POST
def lift(request: HttpRequest, username: str) -> HttpResponse:
    """End a person's restrictions; back to the case (``case``) or their profile."""
    moderator = moderation.access_moderator(request)
    person = get_object_or_404(get_user_model(), username=username)
    case_id = whole_number(request.POST.get("case", ""))
    back = (
        reverse("mod_case", kwargs={"case_id": case_id})
        if case_id is not None
        else reverse("profile", kwargs={"username": person.username})
    )
    try:
        moderation.do_lift(person.pk, moderator, request.POST.get("reason", ""))
    except PeopleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Restrictions lifted."))
    return HttpResponseRedirect(back)
