"""The card of one board square, for the dialog the board opens
(static/js/squares.js). Alike for every viewer: it shows only public
facts, so spectators get exactly what players get."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from common.numbers import whole_number
from games import access, engine
from games.models import GameEvent
from games.web.replay import load_replay
from games.web.squares import DECK_OF_KIND, cards_left, square_card


@require_GET
def square(request: HttpRequest, public_id: str, sq: int) -> HttpResponse:
    """``/games/<id>/square/<n>``: the square now, or at replay step ``?step=``."""
    game = access.access_game_for_viewer(request, public_id, started=True).game
    if not 0 <= sq < engine.NUM_SQUARES or not game.state:
        raise Http404("There is no such square.")
    step = whole_number(request.GET.get("step"))
    if step is not None:
        rep = load_replay(game)
        at = min(step, rep.steps)
        state = rep.state_at(at)
        last_seq = at + 1  # the version a replay step shows
    else:
        state = engine.from_dict(game.state)
        last_seq = game.version
    deck_left = None
    if engine.KIND[sq] in DECK_OF_KIND:
        deck = DECK_OF_KIND[engine.KIND[sq]]
        # Public events only: the draws everyone saw, never the deck's order.
        log = (
            GameEvent.objects.filter(
                game=game,
                kind__in=("card", "jail_card"),
                audience_seat__isnull=True,
                seq__lte=last_seq,
            )
            .order_by("seq", "index")
            .values_list("kind", "payload")
        )
        deck_left = cards_left(state.rules, deck, log, len(state.decks[deck]))
    context = {"game": game, "card": square_card(state, sq, deck_left)}
    return render(request, "games/square_card.html", context)
