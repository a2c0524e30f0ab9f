"""Challenges on the site: the host challenges someone from the game's
lobby page; the challenged answers on the challenge's own page, which the
notice links to (a private game's page would not admit them yet)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from common import ratelimit
from games import access, services
from games.models import Challenge
from games.switches import PRESET_LABELS
from games.web.bot_refusal import api_only_for_bots
from games.web.forms import timer_label

ANSWERS: dict[str, tuple[Callable[..., Any], str]] = {
    "accept": (
        services.accept_challenge,
        "You have a seat: the game starts when its host starts it.",
    ),
    "decline": (services.decline_challenge, "Challenge declined."),
    "withdraw": (services.withdraw_challenge, "Challenge withdrawn."),
}


@login_required
@require_POST
@api_only_for_bots
def challenge(request: HttpRequest, public_id: str) -> HttpResponse:
    access.access_game_for_viewer(request, public_id)
    try:
        ratelimit.hit(request, "challenge")  # one count with the API's challenges
    except ratelimit.RateLimited as exc:
        return ratelimit.too_many(request, exc, reverse("game_detail", args=[public_id]))
    username = request.POST.get("username", "")
    try:
        made = services.challenge_player(public_id=public_id, user=request.user, username=username)
    except services.GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{made.challenged.username} has been challenged.")
    return redirect("game_detail", public_id=public_id)


def _challenge_for(request: HttpRequest, challenge_id: str) -> Challenge:
    """The challenge, for its two sides only: anyone else finds nothing."""
    user = request.user
    made = (
        Challenge.objects.select_related("game", "challenger", "challenged")
        .filter(Q(challenger=user) | Q(challenged=user), public_id=challenge_id)
        .first()
    )
    if made is None:
        raise Http404("There is no such challenge.")
    return made


@login_required
@require_GET
def challenge_detail(request: HttpRequest, challenge_id: str) -> HttpResponse:
    made = _challenge_for(request, challenge_id)
    game = made.game
    context: dict[str, Any] = {
        "challenge": made,
        "game": game,
        "open": made.status == Challenge.Status.PENDING and game.status == game.Status.LOBBY,
        "mine_to_answer": made.challenged_id == request.user.pk,
        "preset_label": PRESET_LABELS.get(game.preset, game.preset),
        "timer": timer_label(game.turn_seconds),
        "taken": game.seats.count(),
    }
    return render(request, "games/challenge.html", context)


@login_required
@require_POST
@api_only_for_bots
def challenge_answer(request: HttpRequest, challenge_id: str, answer: str) -> HttpResponse:
    if answer not in ANSWERS:
        raise Http404("There is no such answer.")
    made = _challenge_for(request, challenge_id)
    if answer == "accept":
        try:
            ratelimit.hit(request, "join")  # a seat taken, as joining takes one
        except ratelimit.RateLimited as exc:
            back = reverse("challenge_detail", args=[challenge_id])
            return ratelimit.too_many(request, exc, back)
    do, said = ANSWERS[answer]
    # Accepting takes a seat: with the dice seed the page's script made.
    extra = {"seed": request.POST.get("seed", "")} if answer == "accept" else {}
    try:
        do(challenge_id=challenge_id, user=request.user, **extra)
    except services.GameNotFound:
        messages.error(
            request, "Only the challenged player can answer, and only the host withdraw."
        )
    except services.GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, said)
        if answer == "accept":
            # Seated: the game's page now admits them, private or not.
            return redirect("game_detail", public_id=made.game.public_id)
    return redirect("challenge_detail", challenge_id=challenge_id)
