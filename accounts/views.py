from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts.forms import SettingsForm
from accounts.models import User
from accounts.profile import profile_context


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    context = {"player": player, **profile_context(player, request.user)}
    return render(request, "accounts/profile.html", context)


@login_required
def settings_view(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    if request.method == "POST":
        form = SettingsForm(request.POST, instance=request.user)
        if form.is_valid():
            form.save()
            messages.success(request, "Settings saved.")
            return redirect("settings")
    else:
        form = SettingsForm(instance=request.user)
    from games.web.timer_presenters import vacation_context

    context = {"form": form, **vacation_context(request.user)}
    return render(request, "accounts/settings.html", context)
