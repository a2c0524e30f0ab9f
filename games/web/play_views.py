"""The in-play game page and its actions.

Thin views: ``access.access_game_for_viewer`` fetches and authorises, the action
forms module reads the post, ``services`` does the work, and the regions are
rendered from the named partials of ``games/game.html``. Domain errors come
back as a message in the action panel with their status (409, 422, 403);
without htmx, as a ``messages`` error after a redirect. Posting too fast
(``common.ratelimit``) gets a 429 in the panel, or a 429 page.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from common import ratelimit
from common.numbers import whole_number
from games import access, action_kinds, engine, services
from games.models import Game, Seat
from games.signals import game_opened
from games.web import presenters, regions
from games.web.action_forms import (
    TERMS_KINDS,
    FormError,
    Panel,
    parse_action,
    parse_version,
    trade_form,
)
from games.web.answer import answer_html, answering
from games.web.bot_refusal import api_only_for_bots
from games.web.regions import TEMPLATE, region_context
from games.web.snapshot import Snapshot

# Regions in the order they are sent; ``actions`` is the htmx target itself.
STALE_MESSAGE = "The game moved on before your action arrived, so nothing was done. Here is the current position."


def _viewing(request: HttpRequest, public_id: str) -> tuple[Game, Seat | None]:
    viewer = access.access_game_for_viewer(request, public_id, started=True)
    return viewer.game, viewer.seat


def render_regions(
    request: HttpRequest, context: dict[str, Any], *, with_actions: bool = True
) -> str:
    """The action panel (the swap target) followed by the other regions as
    out-of-band swaps."""
    parts = []
    if with_actions:
        parts.append(render_to_string(f"{TEMPLATE}#actions", context, request))
    oob = {**context, "oob": True}
    parts += [render_to_string(f"{TEMPLATE}#{name}", oob, request) for name in regions.OUT_OF_BAND]
    return "".join(parts)


def game_page(request: HttpRequest, public_id: str) -> HttpResponse:
    """The full page of an active or finished game (the lead's
    ``/games/<public_id>/`` view calls this once the game has started)."""
    game, seat = _viewing(request, public_id)
    if seat is not None and seat.user_id is not None:
        game_opened.send(sender=Game, game=game, user=request.user)
    snap = Snapshot.of(game)
    context = region_context(snap, seat)
    if seat is None:
        context.update(regions.spectator_context(snap))
    context["board_base"] = presenters.board_base(context["state"], interactive=True)
    context["live_heartbeat"] = settings.LIVE_HEARTBEAT_SECONDS  # static/js/live.js
    context["viewer_key"] = access.viewer_key(request.user, seat.number if seat else None)
    context["report_people"] = _report_people(request, snap)
    if game.status == Game.Status.FINISHED:
        # Drawn once on the full page: a finished game no longer changes.
        from games.web.replay_views import game_charts

        context["game_charts"] = game_charts(game)
    return render(request, TEMPLATE, context)


def _report_people(request: HttpRequest, snap: Snapshot) -> list[tuple[str, str]]:
    """The people a signed-in viewer may report for this game: (name, report page)."""
    if not request.user.is_authenticated:
        return []
    back = snap.game.get_absolute_url()
    return [
        (s.user.public_name, regions.report_url(s.user.username, "game", snap.game.public_id, back))
        for s in snap.seats
        if s.user is not None and s.user_id != request.user.pk
    ]


@require_GET
def game_regions(request: HttpRequest, public_id: str) -> HttpResponse:
    """Every region as an out-of-band fragment, for a client resyncing.
    ``?since=<version>`` answers 204 when nothing changed."""
    game, seat = _viewing(request, public_id)
    since = request.GET.get("since", "")
    if whole_number(since) == game.version:
        return HttpResponse(status=204)
    snap = Snapshot.of(game)
    context = {**region_context(snap, seat), "oob": True}
    body = render_to_string(f"{TEMPLATE}#actions", context, request) + render_regions(
        request, context, with_actions=False
    )
    if seat is None:
        body += _spectator_regions(request, snap)
    return HttpResponse(body)


def _spectator_regions(request: HttpRequest, snap: Snapshot) -> str:
    """The SPECTATOR regions, out of band, for a viewer with no seat."""
    context = {**regions.spectator_context(snap), "game": snap.game, "oob": True}
    if context["win_bar"] is None:
        return ""
    names = regions.SPECTATOR_REGIONS
    return "".join(render_to_string(f"{TEMPLATE}#{name}", context, request) for name in names)


@require_POST
@api_only_for_bots
def game_act(request: HttpRequest, public_id: str) -> HttpResponse:
    # The write checks the seat itself under the game's lock, so the page's
    # access check (two queries) runs only when something is refused, and
    # the answers stay those of checking first.
    action = None
    try:
        # Counted before the post is read, so malformed floods count too.
        ratelimit.hit(request, "action")
        version = parse_version(request.POST)
        action = parse_action(request.POST)
        scope = action_kinds.scope(action["kind"])
        if scope is not None:
            ratelimit.hit(request, scope)
        # The push of this move's commit renders the player's answer along
        # with their seat's push (``games.web.answer``).
        answerer = request.user.pk if request.htmx else None  # type: ignore[attr-defined]
        with answering(public_id, answerer) as answer:
            services.submit_action(
                public_id=public_id, user=request.user, action=action, expected_version=version
            )
    except ratelimit.RateLimited as exc:
        return _limited(request, public_id, exc, action)
    except (FormError, services.GameError) as exc:
        game, seat = _viewing(request, public_id)
        if seat is None:
            return _failed(request, game, seat, "Only players in this game can act.", 403)
        if isinstance(exc, FormError):
            return _failed(request, game, seat, exc.message, 422)
        if isinstance(exc, services.VersionConflict):
            return _failed(request, game, seat, STALE_MESSAGE, 409, action=action)
        if isinstance(exc, services.GameNotFound):
            raise Http404("There is no such game.") from None
        return _failed(request, game, seat, exc.message, exc.status, action=action)
    if not request.htmx:  # type: ignore[attr-defined]
        return HttpResponseRedirect(Game(public_id=public_id).get_absolute_url())
    if answer.html is not None:
        return HttpResponse(answer.html)
    # Nobody had a socket open, so nothing was rendered: the same answer.
    played = Game.objects.filter(public_id=public_id).first()
    if played is None:
        raise Http404("There is no such game.")
    snap = Snapshot.of(played)
    seat = snap.seat_of(request.user)
    if seat is None:
        return _done(request, played, fresh=True)
    return HttpResponse(answer_html(snap, seat))


@require_POST
@api_only_for_bots
def game_resign(request: HttpRequest, public_id: str) -> HttpResponse:
    game, seat = _viewing(request, public_id)
    if seat is None:
        return _failed(request, game, seat, "Only players in this game can resign.", 403)
    if not hasattr(engine, "RESIGN"):
        # services.resign needs the engine's resign action, which is not there yet.
        return _failed(request, game, seat, "Resigning is not available yet.", 422)
    try:
        ratelimit.hit(request, "action")
    except ratelimit.RateLimited as exc:
        return _limited(request, public_id, exc)
    try:
        version = parse_version(request.POST)
        services.resign(public_id=game.public_id, user=request.user, expected_version=version)
    except FormError as exc:
        return _failed(request, game, seat, exc.message, 422)
    except services.VersionConflict:
        return _failed(request, game, seat, STALE_MESSAGE, 409)
    except services.GameNotFound:
        raise Http404("There is no such game.") from None
    except services.GameError as exc:
        return _failed(request, game, seat, exc.message, exc.status)
    if not getattr(request, "htmx", False):
        messages.info(request, "You resigned from this game.")
    return _done(request, game)


def _done(request: HttpRequest, game: Game, *, fresh: bool = False) -> HttpResponse:
    if not request.htmx:  # type: ignore[attr-defined]
        return HttpResponseRedirect(game.get_absolute_url())
    if not fresh:
        game.refresh_from_db()
    # One read of the seats for the viewer's seat, the players and the marks.
    snap = Snapshot.of(game)
    seat = snap.seat_of(request.user)
    return HttpResponse(render_regions(request, region_context(snap, seat, focus=True)))


def _failed(
    request: HttpRequest,
    game: Game,
    seat: Seat | None,
    message: str,
    status: int,
    action: dict[str, Any] | None = None,
) -> HttpResponse:
    if not request.htmx:  # type: ignore[attr-defined]
        messages.error(request, message)
        return HttpResponseRedirect(game.get_absolute_url())
    game.refresh_from_db()
    seat = presenters.viewer_seat(game, request.user) if seat is not None else None
    context = region_context(Snapshot.of(game), seat, error=message, focus=True)
    _keep_trade_input(context, action)
    return HttpResponse(render_regions(request, context), status=status)


def _limited(
    request: HttpRequest,
    public_id: str,
    exc: ratelimit.RateLimited,
    action: dict[str, Any] | None = None,
) -> HttpResponse:
    """429: in the action panel, like any refusal, or as a page."""
    game, seat = _viewing(request, public_id)
    if not request.htmx:  # type: ignore[attr-defined]
        return ratelimit.too_many(request, exc, game.get_absolute_url())
    response = _failed(request, game, seat, exc.message, 429, action=action)
    return ratelimit.with_retry_after(response, exc)


def _keep_trade_input(context: dict[str, Any], action: dict[str, Any] | None) -> None:
    """After a refused trade, show the player's offer again, open, so that
    nothing they typed is lost."""
    if not action or action["kind"] not in TERMS_KINDS:
        return
    state: engine.State = context["state"]
    action_panel: Panel = context["panel"]
    me = context["viewer"]
    try:
        terms = engine.terms_from_dict(action["terms"])
    except engine.EngineError:
        return
    if action["kind"] == engine.PROPOSE_TRADE:
        for i, form in enumerate(action_panel.proposals):
            if form.target == action["target"]:
                action_panel.proposals[i] = trade_form(state, me, form.target, terms=terms)
                action_panel.proposals[i].open = True
        return
    for offer in action_panel.incoming:
        if offer["id"] == action["target"] and offer["counter"] is not None:
            partner = offer["counter"].partner_seat
            offer["counter"] = trade_form(
                state, me, partner, kind=engine.COUNTER_TRADE, target=offer["id"], terms=terms
            )
            offer["counter"].open = True
