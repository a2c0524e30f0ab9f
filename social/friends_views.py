"""The Friends page, and its short form in the lobby's side column."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from social.friends import friends_context


@login_required
@require_GET
def friends(request: HttpRequest) -> HttpResponse:
    return render(request, "social/friends.html", friends_context(request.user))


@require_GET
def friends_panel(request: HttpRequest) -> HttpResponse:
    """The lobby's panel (loaded by htmx): online friends and their games.
    Anonymous visitors get nothing, not a login page inside the lobby."""
    if not request.user.is_authenticated:
        return HttpResponse("")
    context = friends_context(request.user, results=False)
    return render(request, "social/friends_panel.html", context)
