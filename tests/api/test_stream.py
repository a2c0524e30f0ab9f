"""``GET /api/v1/games/{id}/stream`` on a real Daphne: every version in
order, resumed after a disconnect without a gap, the end, the channel
layer group released, and authorization."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx

from accounts.models import User
from api import listeners
from games import engine, services
from games.models import Game
from live import presence
from tests.api.conftest import Api, api_for
from tests.api.streams import KEEPALIVE, Stream, edit, site, state_at, stream_server, wait_for
from tests.games.conftest import duel, private_duel
from tests.live.conftest import move

__all__ = ["duel", "private_duel", "site", "stream_server"]


def versions_of(lines: list[dict[str, Any]], kind: str) -> list[int]:
    return [line["version"] for line in lines if line["type"] == kind]


STILL_OPEN = 10**9


def state_at_least(target: list[int]) -> Any:
    """Stop at a state line at ``target[0]`` or later (set once it is known)."""
    return lambda line: line["type"] == "state" and line["version"] >= target[0]


def moved_on(game: Game, version: int) -> int:
    """One move; the version it left, past ``version``."""
    after = move(game)
    assert after > version
    return after


def last_state(stream: Stream) -> int:
    return max(line["version"] for line in stream.seen if line["type"] == "state")


def test_the_stream_delivers_every_version_in_order_and_resumes_without_a_gap(
    site: str, duel: Game, alice: User
) -> None:
    token = api_for(alice, "read").token
    url = f"{site}/api/v1/games/{duel.public_id}/stream"
    group = listeners.game_group(duel.pk)
    # Left over by Daphnes of earlier runs that were killed with streams open.
    before = set(listeners.layer_members(group))
    # A move may bring more than one version (a standing order claims the
    # rent): each stream stops at the state after the last move it awaits.
    first_stop, second_stop = [STILL_OPEN], [STILL_OPEN]
    first = Stream(f"{url}?since=0", token, stop=state_at_least(first_stop))
    assert first.until(state_at(1))["your_seat"] == 0
    (channel,) = listeners.readers(group)
    assert channel in listeners.layer_members(group)
    assert first.status == 200 and first.content_type == "application/x-ndjson"
    version = 1
    for last in (False, False, True):
        if last:
            first_stop[0] = version + 1
        version = moved_on(duel, version)
        first.until(state_at(version))  # live, not caught up: the stream was open
    first.rest()
    # Gone: its group on the channel layer and its entry are released.
    wait_for(lambda: set(listeners.layer_members(group)) == before and not listeners.readers(group))

    for _ in range(3):  # while away
        version = moved_on(duel, version)
    caught_up = version
    second = Stream(f"{url}?since={last_state(first)}", token, stop=state_at_least(second_stop))
    second.until(state_at(version))
    for last in (False, True):
        if last:
            second_stop[0] = version + 1
        version = moved_on(duel, version)
    second.rest()

    lines = first.seen + second.seen
    assert versions_of(lines, "events") == list(range(1, version + 1))  # each once, in order
    assert all(line["version"] <= version for line in lines)
    events = [line for line in lines if line["type"] == "events"]
    assert events[0]["events"][0]["kind"] == "start"
    assert all(line["events"] for line in events)  # each version did something
    assert versions_of(second.seen, "state")[0] == caught_up  # caught up, then the state


def test_the_stream_ends_with_the_game_and_says_how(site: str, duel: Game, alice: User) -> None:
    token = api_for(alice, "read").token
    stream = Stream(f"{site}/api/v1/games/{duel.public_id}/stream", token)
    stream.until(state_at(1))
    loser = duel.seats.get(number=1).user
    services.resign(public_id=duel.public_id, user=loser, expected_version=duel.version)
    lines = stream.rest()  # the server closes it
    assert [line["type"] for line in lines[-3:]] == ["events", "state", "end"]
    end = lines[-1]
    assert end["status"] == "finished" and end["version"] == 2 and end["winner"] == 0
    # Opened once it is over: the state and the end at once.
    again = Stream(f"{site}/api/v1/games/{duel.public_id}/stream?since=1", token).rest()
    assert [line["type"] for line in again] == ["events", "state", "end"]


def test_a_quiet_stream_sends_keep_alive_lines(site: str, duel: Game, alice: User) -> None:
    stream = Stream(f"{site}/api/v1/games/{duel.public_id}/stream", api_for(alice, "read").token)
    stream.until(state_at(1))
    ping = stream.until(lambda line: line["type"] == "ping", timeout=KEEPALIVE * 5)
    assert ping == {"type": "ping", "version": 1}


def test_without_follow_the_stream_sends_the_catch_up_and_ends(
    site: str, duel: Game, alice: User
) -> None:
    move(duel)
    url = f"{site}/api/v1/games/{duel.public_id}/stream?since=0&follow=false"
    lines = Stream(url, api_for(alice, "read").token).rest()
    assert [(line["type"], line["version"]) for line in lines] == [
        ("events", 1),
        ("events", 2),
        ("state", 2),
    ]


# --- what each reader may see -------------------------------------------------------


def test_a_spectators_stream_never_carries_seat_private_data(
    site: str, alice: User, bob: User, charlie: User
) -> None:
    """A sealed bid and a trade offer: the bidder and the proposer see theirs
    in their own stream; a third player and a spectator see neither."""
    dave = User.objects.create_user("dave", "dave@example.com", "pw-dave-123")
    game = services.create_seated_game(
        humans=[alice, bob, dave], bots=[], switches={"auction_kind": "sealed"}, start=True
    )
    edit(game, lambda s: engine.force_dice(s, (1, 2)))  # onto Baltic Avenue, unowned
    seats = {seat.number: seat.user for seat in game.seats.select_related("user")}
    mover = engine.from_dict(game.state).turn
    partner, third = (mover + 1) % 3, (mover + 2) % 3
    url = f"{site}/api/v1/games/{game.public_id}/stream?since=0"
    readers = {
        name: Stream(url, api_for(user, "read").token)
        for name, user in (("mover", seats[mover]), ("third", seats[third]), ("spectator", charlie))
    }
    for stream in readers.values():
        stream.until(state_at(1))
    mover_api = api_for(seats[mover])
    offer = {"kind": "propose_trade", "target": partner, "terms": {"give_cash": 11}}
    for action in (offer, {"kind": "roll"}, "decline", {"kind": "bid", "amount": 37}):
        game.refresh_from_db()
        if action == "decline":
            legal = mover_api.get(f"/games/{game.public_id}").json()["legal_actions"]
            action = next(entry for entry in legal if entry["kind"] == "decline")
        answer = mover_api.post(
            f"/games/{game.public_id}/actions", {"action": action, "expected_version": game.version}
        )
        assert answer.status_code == 200, (action, answer.json())
    game.refresh_from_db()
    seen = {name: stream.until(state_at(game.version)) for name, stream in readers.items()}
    lines = {name: stream.seen for name, stream in readers.items()}

    def actions(name: str, kind: str) -> list[dict[str, Any]]:
        return [
            event["action"]
            for line in lines[name]
            if line["type"] == "events"
            for event in line["events"]
            if event["kind"] == "action" and event["action"]["kind"] == kind
        ]

    # The bidder and the proposer see their own.
    assert actions("mover", "bid")[0]["amount"] == 37
    assert actions("mover", "propose_trade")[0]["terms"]["give_cash"] == 11
    assert seen["mover"]["private"]["sealed_bid"] == 37
    assert seen["mover"]["private"]["offers"][0]["terms"]["give_cash"] == 11
    # Nobody else does.
    for name in ("third", "spectator"):
        assert actions(name, "bid") == []
        assert "terms" not in actions(name, "propose_trade")[0]
        events = [e for line in lines[name] if line["type"] == "events" for e in line["events"]]
        assert 37 not in [e.get("amount", e.get("action", {}).get("amount")) for e in events]
        assert "give_cash" not in str(lines[name])
    assert seen["third"]["private"] == {"seat": third, "sealed_bid": None, "offers": []}
    assert all(
        line["private"] is None and line["legal_actions"] == []
        for line in lines["spectator"]
        if line["type"] == "state"
    )


# --- authorization ------------------------------------------------------------------


def answer(url: str, token: str | None = None, method: str = "GET") -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.request(method, url, headers=headers, timeout=20)


def test_the_stream_refuses_with_problems_as_the_api_does(
    site: str, duel: Game, private_duel: Game, alice: User, charlie: User
) -> None:
    url = f"{site}/api/v1/games/{duel.public_id}/stream"
    refusals = {
        "no token": answer(url),
        "a revoked token": answer(url, "mnp_000000000000_nothing"),
        "a play-only token": answer(url, api_for(alice, "play").token),
        "another's private game": answer(
            f"{site}/api/v1/games/{private_duel.public_id}/stream", api_for(charlie, "read").token
        ),
        "no such game": answer(f"{site}/api/v1/games/nosuchgame/stream", api_for(alice).token),
        "a bad since": answer(f"{url}?since=-1", api_for(alice).token),
        "a POST": answer(url, api_for(alice).token, method="POST"),
    }
    statuses = {why: response.status_code for why, response in refusals.items()}
    assert statuses == {
        "no token": 401,
        "a revoked token": 401,
        "a play-only token": 403,
        "another's private game": 404,
        "no such game": 404,
        "a bad since": 422,
        "a POST": 405,
    }
    for response in refusals.values():
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["status"] == response.status_code
    assert refusals["no token"].headers["www-authenticate"].startswith("Bearer")
    events = f"{site}/api/v1/stream/events"
    assert answer(events).status_code == 401
    assert answer(events, api_for(alice, "play").token).status_code == 403


def test_the_documented_operation_answers_the_same_without_an_asgi_server(
    duel: Game, private_duel: Game, alice: User, charlie: User
) -> None:
    """The test client goes through Django (``api.stream_routes``): the same
    refusals, and the catch-up without following."""
    url = f"/api/v1/games/{duel.public_id}/stream"
    assert Api(None).get(url.removeprefix("/api/v1")).status_code == 401
    assert api_for(alice, "play").get(url.removeprefix("/api/v1")).status_code == 403
    hidden = f"/games/{private_duel.public_id}/stream"
    assert api_for(charlie, "read").get(hidden).status_code == 404
    got = api_for(alice, "read").get(f"/games/{duel.public_id}/stream?since=0")
    assert got.status_code == 200 and got["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(text) for text in got.content.decode().splitlines()]
    assert [(line["type"], line["version"]) for line in lines] == [("events", 1), ("state", 1)]


def test_a_players_open_stream_counts_as_being_at_the_game(
    site: str, duel: Game, alice: User
) -> None:
    # As with the game's page open: shown online, and no "your move" notice.
    token = api_for(alice, "read").token
    done = threading.Event()
    stream = Stream(
        f"{site}/api/v1/games/{duel.public_id}/stream", token, stop=lambda line: done.is_set()
    )
    stream.until(state_at(1))
    wait_for(lambda: presence.looking(duel.pk) == frozenset({0}))
    # Online, but with no page to push regions to: none are rendered for it.
    here = presence.listening(duel.pk)
    assert here is not None and here.api_seats == {0} and here.online_seats == frozenset()
    done.set()
    stream.rest(timeout=KEEPALIVE * 10)  # closed at its next line, a ping at the latest
    wait_for(lambda: presence.looking(duel.pk) == frozenset())
