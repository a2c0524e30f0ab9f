"""The printed board (``GET /board``): what each square is and what it
costs, the title deeds as the game page's square cards show them. The same
for every game, and public: a client values property and trades from it
(``examples/api_bot.py``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema

from api.auth import need
from api.models import SCOPE_READ
from api.problems import ERRORS
from games import engine

router = Router(tags=["games"])

KIND_NAMES = {
    engine.GO: "go",
    engine.SITE: "site",
    engine.RAILROAD: "railroad",
    engine.UTILITY: "utility",
    engine.CHANCE: "chance",
    engine.CHEST: "community_chest",
    engine.INCOME_TAX: "income_tax",
    engine.LUXURY_TAX: "luxury_tax",
    engine.GO_TO_JAIL: "go_to_jail",
    engine.JAIL: "jail",
    engine.FREE_PARKING: "free_parking",
}


class SquareOut(Schema):
    square: int = Field(description="The square's number, 0 (GO) to 39, as in the state.")
    kind: str = Field(description="site, railroad, utility, chance, community_chest, go...")
    group: int | None = Field(
        description="For property: the colour group 0-7, 8 the railroads, 9 the utilities."
    )
    name_us: str = Field(description="Its name on the US board.")
    name_uk: str = Field(description="Its name on the UK board (the board_names rule).")
    price: int = Field(description="The printed price (0 if not for sale).")
    mortgage: int = Field(description="What the bank lends on it (half the price).")
    house_cost: int = Field(description="A house (and a hotel) on a site.")
    rents: list[int] = Field(
        description="A site's rent bare, with 1-4 houses and with a hotel; empty otherwise."
    )


class GroupOut(Schema):
    group: int = Field(description="As a square's group.")
    name: str = Field(description="brown, light blue, ... railroads, utilities.")
    members: list[int] = Field(description="Its squares.")


class BoardOut(Schema):
    squares: list[SquareOut]
    groups: list[GroupOut]
    railroad_rents: list[int] = Field(description="Rent for owning 1 to 4 railroads.")
    utility_multipliers: list[int] = Field(description="Dice times this, owning 1 or 2.")


@router.get("/board", response={200: BoardOut, **ERRORS}, summary="The printed board")
def board(request: HttpRequest) -> dict[str, Any]:
    need(request, SCOPE_READ)
    return printed_board()


def printed_board() -> dict[str, Any]:
    return {
        "squares": [
            {
                "square": sq,
                "kind": KIND_NAMES[engine.KIND[sq]],
                "group": engine.GROUP[sq] if engine.IS_PROPERTY[sq] else None,
                "name_us": engine.US_NAMES[sq],
                "name_uk": engine.UK_NAMES[sq],
                "price": engine.PRICE[sq],
                "mortgage": engine.MORTGAGE_VALUE[sq],
                "house_cost": engine.HOUSE_COST[sq],
                "rents": list(engine.RENT[sq]),
            }
            for sq in range(engine.NUM_SQUARES)
        ],
        "groups": [
            {"group": g, "name": engine.US_GROUP_NAMES[g], "members": list(members)}
            for g, members in enumerate(engine.GROUP_MEMBERS)
        ],
        "railroad_rents": list(engine.RAILROAD_RENTS),
        "utility_multipliers": list(engine.UTILITY_MULTIPLIERS),
    }
