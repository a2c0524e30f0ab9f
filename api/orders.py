"""Standing orders through the API: read and set a seat's orders with the
page's own form (``games.web.forms.StandingOrdersForm``) and service
(``services.set_standing_orders``: any order that answers a decision open
now fires at once, as on the page)."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Path, Router, Schema
from pydantic import ConfigDict

from api.auth import need, visible
from api.models import SCOPE_PLAY, SCOPE_READ
from api.openapi import Body
from api.problems import ERRORS, Problem, ProblemOut, game_problem
from games import services
from games.models import Game
from games.standing_orders import clean
from games.web.forms import StandingOrdersForm

router = Router(tags=["standing orders"])

GameId = Path(..., pattern=r"^[A-Za-z0-9]{1,16}$", description="The game's public id.")  # type: ignore[type-arg]
_FORM = StandingOrdersForm()
AuctionChoice = Literal[tuple(v for v, _ in _FORM.fields["auction"].choices)]  # type: ignore[attr-defined,valid-type]
JailChoice = Literal[tuple(v for v, _ in _FORM.fields["jail"].choices)]  # type: ignore[attr-defined,valid-type]


# The form's own rule (StandingOrdersForm.clean): bidding "upto" needs a ceiling.
UPTO_NEEDS_A_CEILING: dict[str, Any] = {
    "anyOf": [
        {"properties": {"auction": {"not": {"const": "upto"}}}},
        {"properties": {"auction_max": {"type": "integer"}}, "required": ["auction_max"]},
    ]
}


class OrdersIn(Body):
    """The whole set of orders (what is left out takes its default)."""

    model_config = ConfigDict(json_schema_extra=UPTO_NEEDS_A_CEILING)

    claim_rent: bool = Field(True, description="Claim rent owed to you at once.")
    buy_min_cash_left: int | None = Field(
        None,
        ge=_FORM.fields["buy_min_cash_left"].min_value,  # type: ignore[attr-defined]
        description="Buy unowned property when at least this much cash is left; null: ask.",
    )
    auction: AuctionChoice = Field(  # type: ignore[valid-type]
        "", description="'' ask me, pass, printed (bid up to the printed price), upto."
    )
    auction_max: int | None = Field(
        None,
        ge=_FORM.fields["auction_max"].min_value,  # type: ignore[attr-defined]
        description="With upto: the highest bid.",
    )
    jail: JailChoice = Field("", description="'' ask me, card, pay or roll.")  # type: ignore[valid-type]
    auto_roll: bool = Field(False, description="Roll at once when rolling is the only decision.")


class OrdersOut(Schema):
    game: str = Field(description="The game's id.")
    version: int = Field(description="The game's version now (orders may have fired).")
    orders: dict[str, Any] = Field(description="Your orders, defaults filled in.")


def _seat(game_id: str, user: Any) -> Any:
    viewer = visible(game_id, user)
    if viewer.seat is None:
        raise Problem(403, "Only players in this game have standing orders.", slug="not-a-player")
    return viewer


@router.get(
    "/games/{game_id}/standing-orders", response={200: OrdersOut, **ERRORS}, summary="Your orders"
)
def get_orders(request: HttpRequest, game_id: str = GameId) -> dict[str, Any]:
    user = need(request, SCOPE_READ)
    viewer = _seat(game_id, user)
    return {
        "game": game_id,
        "version": viewer.game.version,
        "orders": clean(viewer.seat.standing_orders),
    }


def form_data(body: OrdersIn) -> dict[str, Any]:
    """The orders as the page's form posts them."""
    data: dict[str, Any] = {"auction": body.auction, "jail": body.jail}
    for name in ("claim_rent", "auto_roll"):
        if getattr(body, name):
            data[name] = "on"
    if body.buy_min_cash_left is not None:
        data["buy"] = "on"
        data["buy_min_cash_left"] = str(body.buy_min_cash_left)
    if body.auction_max is not None:
        data["auction_max"] = str(body.auction_max)
    return data


@router.put(
    "/games/{game_id}/standing-orders",
    response={200: OrdersOut, 409: ProblemOut, **ERRORS},
    summary="Set your orders",
)
def set_orders(request: HttpRequest, body: OrdersIn, game_id: str = GameId) -> dict[str, Any]:
    """Replace your orders in a game in play; those that answer a decision
    open now fire at once (the answer's version says so)."""
    user = need(request, SCOPE_PLAY)
    _seat(game_id, user)
    form = StandingOrdersForm(form_data(body))
    if not form.is_valid():
        errors = {name: [str(e) for e in errs] for name, errs in form.errors.items()}
        first = next(iter(errors.values()))[0]
        raise Problem(422, first, slug="invalid-orders", errors=errors)
    try:
        orders = services.set_standing_orders(public_id=game_id, user=user, orders=form.orders())
    except services.GameError as exc:
        raise game_problem(exc) from None
    game = Game.objects.get(public_id=game_id)
    return {"game": game_id, "version": game.version, "orders": orders}
