from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.models import User
from notifications import services
from notifications.models import Notification


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    notes = Notification.objects.filter(user=user).select_related("game")[:100]
    context = {"notifications": notes, "now": timezone.now()}
    return render(request, "notifications/list.html", context)


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    services.mark_all_read(request.user)
    return redirect("notifications")
