"""Lobby and game set-up pages. Views are thin: services do the writing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from common import ratelimit
from common.numbers import whole_number
from games import access, engine, estimates, services, standing_orders
from games.models import Game, Seat
from games.services.seating import blocked_seated
from games.switches import PRESET_LABELS, parse_switches, switch_rows
from games.web.bot_refusal import api_only_for_bots
from games.web.challenge_people import Suggestion, challenge_people
from games.web.forms import CreateGameForm, timer_label
from games.web.lobby_rows import open_game_rows, your_games_context


def _create_form_context(form: CreateGameForm, preset: str, data: Any = None) -> dict[str, Any]:
    """The create form; ``data`` (a submitted or refreshed form) keeps the
    switches it already set, and its turn timer chooses the auction kind."""
    data = data if data is not None else {}
    turn = str(data.get("turn_seconds", form.fields["turn_seconds"].initial))
    current = None
    if data.get("switches_present"):
        try:
            current = parse_switches(preset, data)
        except ValueError:
            current = None
    rows = switch_rows(preset, turn_seconds=whole_number(turn), current=current)
    return {"form": form, "switch_rows": rows, "preset": preset}


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"open_games": open_game_rows(), "your_games": []}
    if request.user.is_authenticated:
        context.update(your_games_context(request.user))
        context.update(_create_form_context(CreateGameForm(), "us-2003"))
        context.update(_challenge_context(request, request.GET.get("challenge", "")))
        incoming = services.open_challenges().filter(challenged=request.user)
        context["challenges"] = list(incoming.order_by("created_at"))
    return render(request, "games/lobby.html", context)


@require_GET
def lobby_switches(request: HttpRequest) -> HttpResponse:
    preset = request.GET.get("preset", "us-2003")
    if preset not in engine.PRESETS:
        preset = "us-2003"
    # A changed preset starts from its own rules; a changed turn timer keeps
    # what the form says and sets only the auction kind.
    keep = bool(request.GET.get("keep"))
    data = request.GET if keep else {"turn_seconds": request.GET.get("turn_seconds", "")}
    context = _create_form_context(CreateGameForm(), preset, data)
    return render(request, "games/lobby.html#switches", context)


@login_required
@require_POST
@api_only_for_bots
def create_game(request: HttpRequest) -> HttpResponse:
    form = CreateGameForm(request.POST)
    preset = request.POST.get("preset", "us-2003")
    if preset not in engine.PRESETS:
        preset = "us-2003"
    try:
        ratelimit.hit(request, "create")
    except ratelimit.RateLimited as exc:
        response = _create_refused(request, form, preset, exc.message, 429)
        return ratelimit.with_retry_after(response, exc)
    error = ""
    challenged = request.POST.get("challenge", "").strip()
    if form.is_valid():
        try:
            switches = (
                parse_switches(preset, request.POST) if request.POST.get("switches_present") else {}
            )
            # With a challenge, the game is made only if the challenge can go
            # out too: a refused challenge leaves nothing behind.
            with transaction.atomic():
                game = services.create_game(
                    host=request.user, switches=switches, **form.create_kwargs()
                )
                if challenged:
                    services.challenge_player(
                        public_id=game.public_id, user=request.user, username=challenged
                    )
        except ValueError as exc:
            error = str(exc)
        except services.GameError as exc:
            error = exc.message
        else:
            if challenged:
                messages.success(
                    request, gettext("%(name)s has been challenged.") % {"name": challenged}
                )
            return redirect(game.get_absolute_url())
    return _create_refused(request, form, preset, error, 422)


def _challenge_context(request: HttpRequest, username: str) -> dict[str, Any]:
    """The create form's optional challenge: its value and the suggestions,
    friends first (a profile's "Challenge" button fills in its person)."""
    return {
        "challenge_username": username.strip()[:150],
        "challenge_people": challenge_people(request.user),
    }


def _create_refused(
    request: HttpRequest, form: CreateGameForm, preset: str, error: str, status: int
) -> HttpResponse:
    context = _create_form_context(form, preset, request.POST)
    context.update({"create_error": error, "open_games": [], **your_games_context(request.user)})
    context.update(_challenge_context(request, request.POST.get("challenge", "")))
    return render(request, "games/lobby.html", context, status=status)


def _seatless(people: list[Suggestion], seats: list[Seat]) -> list[Suggestion]:
    seated = {s.user.username for s in seats if s.user is not None}
    return [p for p in people if p.username not in seated]


def game_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    game = access.access_game_for_viewer(request, public_id).game
    if game.status in (Game.Status.ACTIVE, Game.Status.FINISHED):
        from games.web import play_views

        return play_views.game_page(request, public_id)
    seats = list(game.seats.select_related("user").order_by("number"))
    my_seat = next(
        (s for s in seats if request.user.is_authenticated and s.user_id == request.user.pk), None
    )
    is_host = request.user.is_authenticated and game.host_id == request.user.pk
    invite_url = _invite_url(request, game)
    context = {
        "game": game,
        "seats": seats,
        "empty_seats": range(game.max_seats - len(seats)),
        "my_seat": my_seat,
        "is_host": is_host,
        "invite_url": invite_url,
        "invite_token": access.invite_token_for(request, game) or "",
        "preset_label": PRESET_LABELS.get(game.preset, game.preset),
        "timer": timer_label(game.turn_seconds),
        # How late spectators will see the win bar (games.estimates).
        "win_delay": {
            "rounds": estimates.delay_rounds() if estimates.has_person(game, seats) else 0,
            "delay": game.analysis_delay_moves,
        },
        # Each house rule with the value this game plays (an int as itself).
        "switches": [
            row
            for row in switch_rows(game.preset, current=game.switches)
            if row["name"] in game.switches
        ],
        "can_start": is_host and len(seats) >= 2,
        # A days-long game: the standing orders that remove most waiting.
        "suggested": (
            standing_orders.SUGGESTED_LINES
            if standing_orders.suggested_for(game.turn_seconds)
            else ()
        ),
        "uses_suggested": my_seat is not None
        and standing_orders.uses_suggested(my_seat.standing_orders),
        "challenges": list(services.open_challenges().filter(game=game).order_by("created_at"))
        if is_host
        else [],
        "challenge_people": _seatless(challenge_people(request.user), seats) if is_host else [],
        # People this viewer blocked who sit here: joining asks them to confirm.
        "blocked_here": [
            u.public_name for u in blocked_seated(request.user, [s.user for s in seats])
        ]
        if request.user.is_authenticated and my_seat is None
        else [],
    }
    return render(request, "games/game_lobby.html", context)


@require_GET
def game_invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: remembered in the session, so that the game's pages
    and socket let this visitor in without the token in their URLs."""
    game = Game.objects.filter(invite_token=token).first()
    if game is None or not access.token_matches(token, game):
        raise Http404("This invite link is not valid (any more).")
    access.remember(request.session, game)
    return redirect(game.get_absolute_url())


def _lobby_action(request: HttpRequest, public_id: str, do: Any, success: str) -> HttpResponse:
    # A private game answers those it does not admit as if it did not exist,
    # before its service can say why it refuses them.
    access.access_game_for_viewer(request, public_id)
    try:
        do()
    except services.GameError as exc:
        messages.error(request, exc.message)
    else:
        if success:
            messages.success(request, success)
    # No token in the address: the page found it in the session (``games.access``).
    return redirect("game_detail", public_id=public_id)


@login_required
@require_POST
@api_only_for_bots
def join(request: HttpRequest, public_id: str) -> HttpResponse:
    try:
        ratelimit.hit(request, "join")
    except ratelimit.RateLimited as exc:
        return ratelimit.too_many(request, exc, reverse("game_detail", args=[public_id]))
    game = Game.objects.filter(public_id=public_id).first()
    token = access.invite_token_for(request, game) if game is not None else None
    suggested = bool(request.POST.get("suggested_orders"))
    seed = request.POST.get("seed", "")
    confirmed = request.POST.get("confirm_blocked") == "1"
    return _lobby_action(
        request, public_id,
        lambda: services.join_game(
            public_id=public_id, user=request.user, invite_token=token,
            suggested_orders=suggested, seed=seed, confirm_blocked=confirmed,
        ),
        "You have taken a seat.",
    )  # fmt: skip


@login_required
@require_POST
@api_only_for_bots
def set_seed(request: HttpRequest, public_id: str) -> HttpResponse:
    """Before the start: the player changes (or removes) their dice seed.
    The lobby's script saves the browser's seed in the background
    (``X-Requested-With: fetch``): it gets 204, or the refusal's status and
    message, and no message is queued for a later page."""
    seed = request.POST.get("seed", "")
    if request.headers.get("X-Requested-With") == "fetch":
        access.access_game_for_viewer(request, public_id)
        try:
            services.set_seed(public_id=public_id, user=request.user, seed=seed)
        except services.GameError as exc:
            return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
        return HttpResponse(status=204)
    return _lobby_action(
        request, public_id,
        lambda: services.set_seed(public_id=public_id, user=request.user, seed=seed),
        gettext("Your dice seed is saved.") if seed.strip() else gettext("Your seat has no dice seed now."),
    )  # fmt: skip


@login_required
@require_POST
@api_only_for_bots
def suggested_orders(request: HttpRequest, public_id: str) -> HttpResponse:
    """One click in the lobby: the seat takes the suggested standing orders."""
    return _lobby_action(
        request, public_id,
        lambda: services.use_suggested_orders(public_id=public_id, user=request.user),
        "Your seat will roll, claim rent and bid up to the printed price by itself.",
    )  # fmt: skip


@login_required
@require_POST
def leave(request: HttpRequest, public_id: str) -> HttpResponse:
    access.access_game_for_viewer(request, public_id)
    try:
        services.leave_game(public_id=public_id, user=request.user)
    except services.GameError as exc:
        messages.error(request, exc.message)
        return redirect("game_detail", public_id=public_id)
    messages.success(request, "You have left the game.")
    return redirect("lobby")


@login_required
@require_POST
def rotate_invite(request: HttpRequest, public_id: str) -> HttpResponse:
    """The host replaces the invite link; htmx gets the invite box back.
    Those who may not see the game get 404, the other players 403."""
    access.access_game_for_viewer(request, public_id)
    try:
        game = services.do_rotate_invite(public_id=public_id, user=request.user)
    except services.GameError as exc:
        if not request.htmx:  # type: ignore[attr-defined]
            messages.error(request, exc.message)
            return redirect("game_detail", public_id=public_id)
        return HttpResponse(exc.message, status=exc.status)
    if not request.htmx:  # type: ignore[attr-defined]
        messages.success(request, "The invite link has changed; the old one no longer works.")
        return redirect(game.get_absolute_url())
    context = {"game": game, "invite_url": _invite_url(request, game), "is_host": True}
    context["rotated"] = True
    return render(request, "games/game_lobby.html#invite", context)


def _invite_url(request: HttpRequest, game: Game) -> str:
    return request.build_absolute_uri(reverse("game_invite", args=[game.invite_token]))


@login_required
@require_POST
@api_only_for_bots
def add_bot(request: HttpRequest, public_id: str) -> HttpResponse:
    kind = request.POST.get("kind", Seat.BotKind.HEURISTIC)
    return _lobby_action(
        request, public_id,
        lambda: services.add_bot(public_id=public_id, user=request.user, kind=kind),
        "",
    )  # fmt: skip


@login_required
@require_POST
@api_only_for_bots
def remove_bot(request: HttpRequest, public_id: str) -> HttpResponse:
    number = whole_number(request.POST.get("seat"))
    if number is None:
        messages.error(request, "Choose a bot seat to remove.")
        return redirect("game_detail", public_id=public_id)
    return _lobby_action(
        request, public_id,
        lambda: services.remove_bot(public_id=public_id, user=request.user, seat_number=number),
        "",
    )  # fmt: skip


@login_required
@require_POST
@api_only_for_bots
def start(request: HttpRequest, public_id: str) -> HttpResponse:
    return _lobby_action(
        request, public_id,
        lambda: services.start_game(public_id=public_id, user=request.user),
        "The game has started.",
    )  # fmt: skip
