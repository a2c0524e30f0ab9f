"""A bot that plays Async Monopoly through the public API (docs/api.md).

It joins an open game (or creates one: with ``--bot`` it adds a site bot
and starts it, else it starts once someone has joined), follows the game's NDJSON stream and, whenever it has legal
actions, posts one chosen by a simple policy until the game ends:

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
# bankruptcy), auctions passed, trades refused and nothing built.
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
    "reject_trade",
    "end_turn",
)
# What the policy never does on its own.
NEVER = {"propose_trade", "counter_trade", "withdraw_trade", "accept_trade", "expire_claim"}
BUY_RESERVE = 0  # cash to keep after buying; the engine offers only what you can pay


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


def choose(view: dict[str, Any], refused: Collection[str] = ()) -> dict[str, Any] | None:
    """The action to post, or None when there is nothing to do. ``refused``
    holds the kinds the server refused at this version."""
    legal: list[dict[str, Any]] = [
        a for a in view.get("legal_actions", []) if a["kind"] not in refused
    ]
    seat, state = view.get("your_seat"), view.get("state") or {}
    for kind in PREFERENCE:
        for action in legal:
            if action["kind"] != kind:
                continue
            if kind == "buy" and seat is not None and state.get("cash", [0])[seat] < BUY_RESERVE:
                continue
            return action
    rest = [a for a in legal if a["kind"] not in NEVER]
    if rest and any(d["player"] == seat for d in view.get("decisions", [])):
        return rest[0]  # a decision of ours: answer it
    return None


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


def play_turns(client: httpx.Client, view: dict[str, Any], log: Log) -> int:
    """Act while the policy has something to do; returns the last version
    known. A 409 (the game moved on) or a refusal refetches the game."""
    game_id, refused = view["id"], set[str]()
    while True:
        action = choose(view, refused)
        if action is None:
            return int(view["version"])
        status, answer = act(client, game_id, action, view["version"])
        if status == 200:
            log(f"v{answer['version']}: {action['kind']}")
            view = {**view, "version": answer["version"], "legal_actions": answer["legal_actions"]}
            refused = set()
            if not answer["legal_actions"] or action["kind"] in ("end_turn", "declare_bankruptcy"):
                view = checked(client.get(f"/games/{game_id}"))  # decisions and state afresh
            continue
        if status != 409:
            refused.add(action["kind"])  # never the same refused move twice
            log(f"v{view['version']}: {action['kind']} refused ({status}): {answer.get('detail')}")
        fresh = checked(client.get(f"/games/{game_id}"))
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
    view = checked(client.get(f"/games/{game_id}"))
    known = play_turns(client, view, log) if view["status"] == "active" else view["version"]
    for line in follow(client, game_id, since=view["version"], log=log):
        if line["type"] == "end":
            log(f"the game is over: {line}")
            return line
        if line["type"] == "state" and line["version"] >= known and line["status"] == "active":
            known = play_turns(client, line, log)
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
