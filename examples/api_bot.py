"""A bot that plays Async Monopoly through the public API (docs/api.md).

It joins an open game (or creates one: with ``--bot`` it adds a site bot
and starts it, else it starts once someone has joined), follows the game's NDJSON stream and, whenever it has legal
actions, posts one chosen by a simple policy until the game ends. The policy
buys what it can, builds on complete colour groups and trades to complete
them, valuing a trade as the site's own bots do, so that games end:

    python examples/api_bot.py --url http://127.0.0.1:8000 --token mnp_... --bot heuristic

The token comes from the settings page or ``python manage.py create_api_token
USER``; ``MONOPOLY_URL`` and ``MONOPOLY_TOKEN`` may stand for the options.
Only the standard library and httpx are needed.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
import uuid
from collections.abc import Callable, Collection, Iterator
from typing import Any

import httpx

Log = Callable[[str], None]

# The policy's order of preference: the first kind on offer is taken.
# Debts are always answered (paid, or settled by selling and mortgaging, or
# bankruptcy) and auctions passed. "accept_trade", "unmortgage", "build" and
# "propose_trade" are taken only when the trade rules below say so; other
# offers are refused.
PREFERENCE = (
    "claim_rent",
    "pay_debt",
    "auto_settle",
    "declare_bankruptcy",
    "buy",
    "decline",
    "pass_bid",
    "no_wish",
    "forfeit_building",
    "place_building",
    "income_tax_flat",
    "pay_fine_instead",
    "use_jail_card",
    "roll",
    "accept_trade",
    "reject_trade",
    "unmortgage",
    "build",
    "propose_trade",
    "end_turn",
)
# What the policy never does on its own.
NEVER = {"propose_trade", "counter_trade", "withdraw_trade", "accept_trade", "expire_claim"}
BUY_RESERVE = 0  # cash to keep after buying; the engine offers only what you can pay
# Cash kept after paying for a trade, a house or a lifted mortgage (the
# site's heuristic bot keeps as much).
CUSHION = 150
CARD_VALUE = 50  # a Get Out of Jail Free card, in a trade
RETRY_OFFER_TURNS = 8  # an offer refused is not made again for this many turns
# After these the answer's legal actions are not enough: the state is read afresh.
REFETCH = {"end_turn", "declare_bankruptcy", "build", "unmortgage", "accept_trade", "propose_trade"}


def connect(url: str, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=url.rstrip("/") + "/api/v1",
        headers={"Authorization": f"Bearer {token}"},
        timeout=httpx.Timeout(30.0),
    )


def checked(answer: httpx.Response) -> Any:
    if answer.status_code >= 400:
        raise RuntimeError(f"{answer.request.method} {answer.request.url}: {answer.text}")
    return answer.json()


def create_game(
    client: httpx.Client,
    *,
    preset: str = "us-2003",
    seats: int = 2,
    switches: dict[str, Any] | None = None,
    public: bool = True,
    bot_speed: str = "paced",
) -> dict[str, Any]:
    body = {
        "preset": preset,
        "seats": seats,
        "switches": switches or {},
        "turn_seconds": 3600,
        "public": public,
        "bot_speed": bot_speed,
    }
    created: dict[str, Any] = checked(client.post("/games", json=body))
    # Our own contribution to the dice, given once the site has committed to
    # its secret (the answer's commitment), so it cannot pick one around it.
    seeded: dict[str, Any] = checked(
        client.post(f"/games/{created['id']}/seed", json={"seed": secrets.token_hex(32)})
    )
    return seeded


def join_open_game(client: httpx.Client) -> dict[str, Any] | None:
    """Join the newest open game with a free seat; None if there is none."""
    for row in checked(client.get("/games/open")):
        if row["taken"] < row["seats"]:
            answer = client.post(f"/games/{row['id']}/join", json={"seed": secrets.token_hex(32)})
            if answer.status_code == 200:
                joined: dict[str, Any] = answer.json()
                return joined
    return None


def add_bot_and_start(client: httpx.Client, game_id: str, kind: str = "heuristic") -> None:
    checked(client.post(f"/games/{game_id}/bots", json={"kind": kind}))
    checked(client.post(f"/games/{game_id}/start"))


def start_when_full(client: httpx.Client, game_id: str, log: Log = print) -> None:
    """As the host of a game made without a site bot: wait until every seat
    is taken (someone joins from the lobby or the invite link), then start."""
    log("waiting for players to join")
    while True:
        view = checked(client.get(f"/games/{game_id}"))
        if view["status"] != "lobby":
            return
        if len(view["players"]) >= view["seats"]:
            checked(client.post(f"/games/{game_id}/start"))
            return
        time.sleep(2.0)


def choose(
    view: dict[str, Any],
    refused: Collection[str] = (),
    board: dict[str, Any] | None = None,
    offered: dict[Any, int] | None = None,
) -> dict[str, Any] | None:
    """The action to post, or None when there is nothing to do. ``refused``
    holds the kinds the server refused at this version. With ``board`` (GET
    /board) it also trades and builds; ``offered`` remembers its offers, so
    that a refused one is not made again at once."""
    legal: list[dict[str, Any]] = [
        a for a in view.get("legal_actions", []) if a["kind"] not in refused
    ]
    seat, state = view.get("your_seat"), view.get("state") or {}
    our_turn_ends = any(a["kind"] == "end_turn" for a in legal)
    for kind in PREFERENCE:
        if kind == "propose_trade":
            if board is not None and our_turn_ends and kind not in refused:
                offer = best_offer(view, board, offered if offered is not None else {})
                if offer is not None:
                    return offer
            continue
        for action in legal:
            if action["kind"] != kind:
                continue
            if kind == "buy" and seat is not None and state.get("cash", [0])[seat] < BUY_RESERVE:
                continue
            if kind == "accept_trade" and not (board and worth_accepting(view, action, board)):
                continue
            if kind in ("build", "unmortgage") and not (
                board and our_turn_ends and worth_paying_for(view, action, board)
            ):
                continue
            return action
    rest = [a for a in legal if a["kind"] not in NEVER]
    if rest and any(d["player"] == seat for d in view.get("decisions", [])):
        return rest[0]  # a decision of ours: answer it
    return None


# --- trades -------------------------------------------------------------------
# A trade is valued as the site's heuristic bot values it
# (games/engine/bot_trades.py), so that each accepts what the other offers:
# property at its printed price (less the loan on a mortgaged one, and the
# 10% due on receiving it), cash and jail cards at face value, plus the
# group's printed price for each colour group the trade completes for you,
# less a share of that (half early, falling to a quarter after 100 rounds)
# for each group it completes for the other side.


def ten_percent(amount: int) -> int:
    return (amount + 9) // 10


def trade_value(
    state: dict[str, Any],
    board: dict[str, Any],
    me: int,
    other: int,
    receive: list[int],
    give: list[int],
    cash: int = 0,
    cards: int = 0,
) -> int:
    """What receiving ``receive`` for ``give`` (squares), with ``cash`` and
    ``cards`` net to you, is worth to seat ``me`` trading with ``other``."""
    squares, owner, mortgaged = board["squares"], state["owner"], state["mortgaged"]
    value = cash + CARD_VALUE * cards
    for sq in receive:
        loan = squares[sq]["mortgage"]
        value += squares[sq]["price"] - (loan + ten_percent(loan) if mortgaged[sq] else 0)
    for sq in give:
        value -= squares[sq]["price"] - (squares[sq]["mortgage"] if mortgaged[sq] else 0)
    after = {**dict(enumerate(owner)), **dict.fromkeys(receive, me), **dict.fromkeys(give, other)}
    rounds = state["turn_number"] // max(1, state["players"] - len(state["bankrupt_order"]))
    share = max(25, 50 - rounds // 4)
    for group in board["groups"][:8]:  # the colour groups
        members = group["members"]
        if not set(members) & set(receive + give):
            continue
        premium = sum(squares[m]["price"] for m in members)
        mine = all(after[m] == me for m in members) - all(owner[m] == me for m in members)
        theirs = all(after[m] == other for m in members) - all(owner[m] == other for m in members)
        value += premium * mine - premium * share * theirs // 100
    return value


def worth_accepting(view: dict[str, Any], action: dict[str, Any], board: dict[str, Any]) -> bool:
    """Accept an offer worth at least nothing to us that leaves the cushion."""
    state, me = view["state"], view["your_seat"]
    offers = (view.get("private") or {}).get("offers", [])
    offer = next((o for o in offers if o["id"] == action["target"]), None)
    if offer is None or offer["recipient"] != me:
        return False
    terms = offer["terms"]
    if terms["take_cash"] and state["cash"][me] - terms["take_cash"] < CUSHION:
        return False
    cash = terms["give_cash"] - terms["take_cash"]
    cards = sum(terms["give_cards"]) - sum(terms["take_cards"])
    value = trade_value(
        state, board, me, offer["proposer"], terms["give_props"], terms["take_props"], cash, cards
    )
    return value >= 0


def best_offer(
    view: dict[str, Any], board: dict[str, Any], offered: dict[Any, int]
) -> dict[str, Any] | None:
    """An offer completing one of our colour groups from the one player who
    holds the rest of it: for cash, or swapping a group of theirs that only
    we stand in the way of. The price is the least they accept by the same
    valuation (rounded up to 10); the offer must be worth something to us
    and leave us the cushion. None if we have an offer open."""
    state, me = view["state"], view["your_seat"]
    if any(o["proposer"] == me for o in (view.get("private") or {}).get("offers", [])):
        return None
    cash, turn = state["cash"], state["turn_number"]
    best: tuple[int, dict[str, Any]] | None = None
    for take, other in wanted(state, board, me):
        group = board["squares"][take[0]]["group"]
        swaps = [
            give
            for give, seller in wanted(state, board, other)
            if seller == me and board["squares"][give[0]]["group"] != group
        ]
        for give in [[], *swaps]:
            key = (other, tuple(sorted(give)), tuple(sorted(take)))
            if turn - offered.get(key, -RETRY_OFFER_TURNS) < RETRY_OFFER_TURNS:
                continue
            price = -(trade_value(state, board, other, me, give, take) // 10) * 10
            if price < 0:  # they would pay: ask what they can spare
                price = -(min(-price, max(0, cash[other] - CUSHION)) // 10 * 10)
            value = trade_value(state, board, me, other, take, give) - price
            interest = sum(
                ten_percent(board["squares"][sq]["mortgage"])
                for sq in take
                if state["mortgaged"][sq]
            )
            if value < 0 or cash[me] - max(price, 0) - interest < CUSHION:
                continue
            if best is None or value > best[0]:
                terms = {
                    "give_props": sorted(give),
                    "give_cash": max(price, 0),
                    "give_cards": [0, 0],
                    "take_props": sorted(take),
                    "take_cash": max(-price, 0),
                    "take_cards": [0, 0],
                }
                best = (value, {"kind": "propose_trade", "target": other, "terms": terms})
    if best is None:
        return None
    terms = best[1]["terms"]
    offered[(best[1]["target"], tuple(terms["give_props"]), tuple(terms["take_props"]))] = turn
    return best[1]


def wanted(state: dict[str, Any], board: dict[str, Any], me: int) -> list[tuple[list[int], int]]:
    """(squares, seller) for each colour group ``me`` holds part of and one
    other player still in the game holds the rest of, with no buildings
    (the rules allow no trade in a group with buildings)."""
    owner, buildings = state["owner"], state["buildings"]
    out = []
    for group in board["groups"][:8]:
        members = group["members"]
        rest = [m for m in members if owner[m] != me]
        sellers = {owner[m] for m in rest}
        if len(sellers) != 1 or len(rest) == len(members) or any(buildings[m] for m in members):
            continue
        seller = sellers.pop()
        if seller >= 0 and state["alive"][seller]:
            out.append((rest, seller))
    return out


def worth_paying_for(view: dict[str, Any], action: dict[str, Any], board: dict[str, Any]) -> bool:
    """Build, or lift a mortgage in a complete group, keeping the cushion."""
    state, me, sq = view["state"], view["your_seat"], action["square"]
    square = board["squares"][sq]
    if action["kind"] == "build":
        cost = square["house_cost"]
    else:
        group = board["groups"][square["group"]]["members"]
        if square["group"] >= 8 or any(state["owner"][m] != me for m in group):
            return False
        cost = square["mortgage"] + ten_percent(square["mortgage"])
    return bool(state["cash"][me] - cost >= CUSHION)


def act(
    client: httpx.Client, game_id: str, action: dict[str, Any], version: int
) -> tuple[int, dict[str, Any]]:
    """Post one action with an Idempotency-Key (a retry after a network error
    is applied once); returns the status and the answer."""
    key = uuid.uuid4().hex
    body = {"action": action, "expected_version": version}
    errors = 0
    for _ in range(30):
        try:
            answer = client.post(
                f"/games/{game_id}/actions", json=body, headers={"Idempotency-Key": key}
            )
        except httpx.TransportError:
            errors += 1
            if errors == 3:
                raise
            time.sleep(0.5)
            continue
        if answer.status_code == 429:  # over the token's budget: wait as told, then again
            time.sleep(min(float(answer.headers.get("Retry-After") or 1), 60.0))
            continue
        return answer.status_code, answer.json()
    return 409, {}


def fetch(client: httpx.Client, path: str) -> Any:
    """GET, waiting as told when over the token's read budget."""
    for _ in range(30):
        answer = client.get(path)
        if answer.status_code != 429:
            return checked(answer)
        time.sleep(min(float(answer.headers.get("Retry-After") or 1), 60.0))
    return checked(answer)


def play_turns(
    client: httpx.Client,
    view: dict[str, Any],
    log: Log,
    board: dict[str, Any] | None = None,
    offered: dict[Any, int] | None = None,
) -> int:
    """Act while the policy has something to do; returns the last version
    known. A 409 (the game moved on) or a refusal refetches the game."""
    game_id, refused = view["id"], set[str]()
    while True:
        action = choose(view, refused, board, offered)
        if action is None:
            return int(view["version"])
        status, answer = act(client, game_id, action, view["version"])
        if status == 200:
            log(f"v{answer['version']}: {action['kind']}")
            view = {**view, "version": answer["version"], "legal_actions": answer["legal_actions"]}
            refused = set()
            if not answer["legal_actions"] or action["kind"] in REFETCH:
                view = fetch(client, f"/games/{game_id}")  # decisions and state afresh
            continue
        if status != 409:
            refused.add(action["kind"])  # never the same refused move twice
            log(f"v{view['version']}: {action['kind']} refused ({status}): {answer.get('detail')}")
        fresh = fetch(client, f"/games/{game_id}")
        if fresh["version"] != view["version"]:
            refused = set()
        view = fresh


def follow(
    client: httpx.Client, game_id: str, since: int | None = None, log: Log = print
) -> Iterator[dict[str, Any]]:
    """The game's stream, line by line; after a dropped connection it
    reconnects from the last version seen, so nothing is missed."""
    delay = 0.5
    while True:
        params = {"since": str(since)} if since is not None else {}
        try:
            with client.stream(
                "GET",
                f"/games/{game_id}/stream",
                params=params,
                timeout=httpx.Timeout(30.0, read=90.0),
            ) as answer:
                if answer.status_code != 200:
                    answer.read()
                    raise RuntimeError(f"stream refused: {answer.text}")
                delay = 0.5
                for text in answer.iter_lines():
                    if not text:
                        continue
                    line = json.loads(text)
                    if line["type"] == "events":
                        since = line["version"]
                    yield line
                    if line["type"] == "end":
                        return
        except httpx.TransportError as exc:
            log(f"stream dropped ({exc!r}); reconnecting after version {since}")
        time.sleep(delay)
        delay = min(delay * 2, 10.0)


def play(client: httpx.Client, game_id: str, log: Log = print) -> dict[str, Any]:
    """Play the token's seat in ``game_id`` until the game ends; returns the
    stream's end line."""
    view = fetch(client, f"/games/{game_id}")
    board, offered = fetch(client, "/board"), dict[Any, int]()
    known = view["version"]
    if view["status"] == "active":
        known = play_turns(client, view, log, board, offered)
    for line in follow(client, game_id, since=view["version"], log=log):
        if line["type"] == "end":
            log(f"the game is over: {line}")
            return line
        if line["type"] == "state" and line["version"] >= known and line["status"] == "active":
            known = play_turns(client, line, log, board, offered)
    raise RuntimeError("the stream ended before the game")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MONOPOLY_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("MONOPOLY_TOKEN"))
    parser.add_argument("--game", help="play this game (joining it if need be)")
    parser.add_argument("--create", action="store_true", help="create a game, never join one")
    parser.add_argument("--bot", metavar="KIND", help="create a game, add a site bot and start")
    parser.add_argument("--preset", default="us-2003")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument(
        "--instant-bots",
        action="store_true",
        help="in a game it creates, site bots answer within each move instead of a second apart",
    )
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set MONOPOLY_TOKEN")
    with connect(args.url, args.token) as client:
        if args.game:
            view = checked(client.get(f"/games/{args.game}"))
            if view["your_seat"] is None:
                view = checked(
                    client.post(f"/games/{args.game}/join", json={"seed": secrets.token_hex(32)})
                )
        else:
            joined = None if args.create or args.bot else join_open_game(client)
            view = joined or create_game(
                client,
                preset=args.preset,
                seats=args.seats,
                bot_speed="instant" if args.instant_bots else "paced",
            )
            if joined is None and args.bot:
                add_bot_and_start(client, view["id"], args.bot)
            elif joined is None:
                start_when_full(client, view["id"])
        print(f"playing {args.url.rstrip('/')}/games/{view['id']}/ as seat {view['your_seat']}")
        play(client, view["id"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
