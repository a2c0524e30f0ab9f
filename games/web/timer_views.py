"""Timer views: reclaim a seat from the bot, and set standing orders."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from common import ratelimit
from games import access, services
from games.models import Game
from games.standing_orders import clean
from games.web import presenters
from games.web.bot_refusal import api_only_for_bots
from games.web.forms import StandingOrdersForm

ORDERS_TEMPLATE = "games/play/standing_orders.html"


def _game(request: HttpRequest, public_id: str) -> Game:
    """The game, by the one rule of ``games.access``; the services then check
    that the viewer has a seat in it."""
    return access.access_game_for_viewer(request, public_id).game


@login_required
@require_POST
@api_only_for_bots
def reclaim(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(request, public_id)
    try:
        ratelimit.hit(request, "action")
    except ratelimit.RateLimited as exc:
        return ratelimit.too_many(request, exc, game.get_absolute_url())
    try:
        services.reclaim_seat(public_id=public_id, user=request.user)
    except services.GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Your seat is yours again; the bot has stepped aside.")
    return HttpResponseRedirect(game.get_absolute_url())


@login_required
@require_POST
@api_only_for_bots
def standing_orders(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(request, public_id)
    form = StandingOrdersForm(request.POST)
    status, saved, limited = 200, False, None
    try:
        ratelimit.hit(request, "action")
    except ratelimit.RateLimited as exc:
        if not request.htmx:  # type: ignore[attr-defined]
            return ratelimit.too_many(request, exc, game.get_absolute_url())
        form.add_error(None, exc.message)
        status, limited = 429, exc
    else:
        if form.is_valid():
            try:
                services.set_standing_orders(
                    public_id=public_id, user=request.user, orders=form.orders()
                )
                saved = True
            except services.GameError as exc:
                form.add_error(None, exc.message)
                status = exc.status
        else:
            status = 422
    if not request.htmx:  # type: ignore[attr-defined]
        if saved:
            messages.success(request, "Standing orders saved.")
        else:
            messages.error(request, "Standing orders were not saved: " + _errors(form))
        return HttpResponseRedirect(game.get_absolute_url())
    game.refresh_from_db()
    seat = presenters.viewer_seat(game, request.user)
    orders = clean(seat.standing_orders) if seat is not None else None
    if saved:
        form = StandingOrdersForm(initial=orders)
    context = {"game": game, "orders": orders, "orders_form": form, "saved": saved,
               "timer_urls": {"orders": f"{game.get_absolute_url()}orders"}}  # fmt: skip
    response = render(request, ORDERS_TEMPLATE, context, status=status)
    return ratelimit.with_retry_after(response, limited) if limited else response


def _errors(form: StandingOrdersForm) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


@login_required
@require_POST
def vacation(request: HttpRequest) -> HttpResponse:
    from games.web.forms import VacationForm

    try:
        if request.POST.get("action") == "end":
            services.end_vacation(user=request.user)
            messages.success(request, "Welcome back: your clocks are running again.")
        else:
            form = VacationForm(request.POST)
            if not form.is_valid():
                messages.error(request, "Choose a number of days from 1 to 366.")
            else:
                until = services.start_vacation(user=request.user, days=form.cleaned_data["days"])
                local = timezone.localtime(until)
                messages.success(
                    request, f"On vacation until {local:%a %d %b %Y, %H:%M} ({local:%Z})."
                )
    except services.GameError as exc:
        messages.error(request, exc.message)
    return redirect("settings")
