"""``/settings/privacy``: who may challenge me, message me and chat in my
games, and the "no chat" switch."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import User
from people import services as people_services
from social.forms import PrivacyForm


@login_required
@require_http_methods(["GET", "POST"])
def privacy(request: HttpRequest) -> HttpResponse:
    # A copy: a refused form must not change the signed-in user the page shows.
    account = User.objects.get(pk=request.user.pk)
    if request.method == "POST":
        form = PrivacyForm(request.POST, instance=account)
        if form.is_valid():
            people_services.do_save_privacy(form)
            messages.success(request, _("Privacy settings saved."))
            return redirect("privacy_settings")
        status = 422
    else:
        form, status = PrivacyForm(instance=account), 200
    return render(request, "social/privacy.html", {"form": form}, status=status)
