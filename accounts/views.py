from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.bot import BotAccountError, set_bot_account
from accounts.claims import NameTaken
from accounts.forms import SettingsForm
from accounts.models import User
from accounts.profile import follow_counts, profile_context, relation_context


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    context = {
        "player": player,
        **profile_context(player, request.user),
        **relation_context(request.user, player),
        # Shown to the account itself only: counts drove follow-begging.
        "follow_counts": follow_counts(player) if request.user == player else None,
    }
    return render(request, "accounts/profile.html", context)


@login_required
def settings_view(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    if request.method == "POST":
        form = SettingsForm(request.POST, instance=request.user)
        if form.is_valid():
            try:
                form.save()
            except NameTaken as exc:  # claimed by another account since the check
                request.user.refresh_from_db()  # the page shows the account as it is
                form.add_error("display_name", exc.message)
            else:
                messages.success(request, "Settings saved.")
                return redirect("settings")
    else:
        form = SettingsForm(instance=request.user)
    from games.web.timer_presenters import vacation_context

    context = {
        "form": form,
        "bot_max_games": settings.API_BOT_MAX_GAMES,
        **vacation_context(request.user),
    }
    return render(request, "accounts/settings.html", context)


@login_required
@require_POST
def bot_account(request: HttpRequest) -> HttpResponse:
    """Turn the account into a bot account or back; the form must say so
    twice (the switch and a confirming box), since it changes where the
    account may play and in which pool it is rated."""
    assert isinstance(request.user, User)
    on = request.POST.get("bot_account") == "on"
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm the change; nothing was changed.")
        return redirect("settings")
    try:
        set_bot_account(request.user, on)
    except BotAccountError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            "This is now a bot account: it plays through the API with a token of the bot scope."
            if on
            else "This is a person's account again: it plays on the site's pages.",
        )
    return redirect("settings")
