"""Games through the API: creating, adding a bot, starting, reading and
playing, with the same services and rules as the page."""

from __future__ import annotations

import contextlib
from typing import Any

from django.db import transaction

from accounts.models import User
from games import engine, services
from games.models import Game
from tests.api.conftest import Api, api_for
from tests.conftest import setup_writes

PREFERRED = ["roll", "pay_jail_fine", "income_tax_flat", "buy", "end_turn", "pay_debt"]


def started_against_a_bot(api: Api) -> dict[str, Any]:
    made = api.post(
        "/games", {"preset": "us-2003", "seats": 2, "turn_seconds": 3600, "public": True}
    )
    assert made.status_code == 201, made.content
    game_id = made.json()["id"]
    assert made.json()["status"] == "lobby"
    bot = api.post(f"/games/{game_id}/bots", {"kind": "heuristic"})
    assert bot.status_code == 201, bot.content
    started = api.post(f"/games/{game_id}/start")
    assert started.status_code == 200, started.content
    return started.json()


def play_bots_until_seat(game_id: str, seat: int) -> None:
    for _ in range(200):
        game = Game.objects.get(public_id=game_id)
        state = engine.from_dict(game.state)
        if engine.next_actor(state) == seat or state.finished:
            return
        assert services.play_bot_move(game.pk, game.version)
    raise AssertionError("the bot never handed over")


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in PREFERRED:
        for entry in legal:
            if entry["kind"] == kind:
                return entry
    return legal[0]


def test_a_player_creates_a_game_adds_a_bot_starts_and_plays_a_turn_through_the_api(
    alice_api: Api, no_bot_tasks: Any
) -> None:
    view = started_against_a_bot(alice_api)
    game_id, seat = view["id"], view["your_seat"]
    assert view["status"] == "active"
    assert [p["bot"] for p in view["players"]] == [None, "heuristic"]
    play_bots_until_seat(game_id, seat)
    view = alice_api.get(f"/games/{game_id}").json()
    assert view["legal_actions"]
    moves = 0
    while view["state"]["turn"] == seat and not view["state"]["finished"]:
        # Each entry goes back exactly as it came.
        entry = choose(view["legal_actions"])
        answer = alice_api.post(
            f"/games/{game_id}/actions", {"action": entry, "expected_version": view["version"]}
        )
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert body["version"] > view["version"]
        assert body["events"]
        assert all("kind" in e and "text" in e for e in body["events"])
        view = alice_api.get(f"/games/{game_id}").json()
        assert body["legal_actions"] == view["legal_actions"]
        moves += 1
        assert moves < 50
    assert moves >= 2  # at least a roll and the end of the turn
    assert view["state"]["turn"] != seat or view["state"]["finished"]


def test_every_legal_action_entry_is_accepted_as_it_is(alice_api: Api, no_bot_tasks: Any) -> None:
    """Each entry of ``legal_actions``, posted back unchanged, is a legal
    move: tried one at a time on the same position, each in a savepoint that
    is rolled back, from a position with many choices (roll, jail, build,
    mortgage, sell)."""
    view = started_against_a_bot(alice_api)
    play_bots_until_seat(view["id"], view["your_seat"])
    game = Game.objects.get(public_id=view["id"])
    me = view["your_seat"]
    owners = dict.fromkeys([1, 3, 6, 8, 9, 5, 12], me)  # browns, light blues, a railroad, a utility
    state = engine.setup(
        engine.from_dict(game.state), owners=owners, buildings={6: 1, 8: 1, 9: 1},
        mortgaged=[12], jail={me: 0}, jail_cards={me: (1, 0)}, turn=me,
    )  # fmt: skip
    game.state = engine.to_dict(state)
    with setup_writes("a scripted position"):
        game.save(update_fields=["state"])
    view = alice_api.get(f"/games/{view['id']}").json()
    kinds = {entry["kind"] for entry in view["legal_actions"]}
    assert {"pay_jail_fine", "use_jail_card", "build", "mortgage", "unmortgage"} <= kinds
    for entry in view["legal_actions"]:
        with contextlib.suppress(_Undo), transaction.atomic():
            answer = alice_api.post(
                f"/games/{view['id']}/actions",
                {"action": entry, "expected_version": view["version"]},
            )
            assert answer.status_code == 200, (entry, answer.content)
            assert answer.json()["version"] == view["version"] + 1
            raise _Undo  # back to the position, for the next entry


class _Undo(Exception):
    """Rolls a tried move back."""


def test_the_game_view_reveals_nothing_of_the_future(alice_api: Api, no_bot_tasks: Any) -> None:
    view = started_against_a_bot(alice_api)
    game = Game.objects.get(public_id=view["id"])
    state = engine.from_dict(game.state)
    text = str(view)
    for secret in ("seed", "secret", "rng", "decks", "forced_dice", "bids"):
        assert f"'{secret}'" not in text
    assert str(game.seed) not in text
    if state.secret:
        assert state.secret not in text
    assert view["state"]["cards_left"] == [len(d) for d in state.decks]


def test_a_spectator_sees_the_public_state_and_nothing_private(
    alice_api: Api, charlie_api: Api, no_bot_tasks: Any
) -> None:
    view = started_against_a_bot(alice_api)
    play_bots_until_seat(view["id"], view["your_seat"])
    seen = charlie_api.get(f"/games/{view['id']}")
    assert seen.status_code == 200
    body = seen.json()
    assert body["your_seat"] is None
    assert body["private"] is None
    assert body["legal_actions"] == []
    assert body["state"] == alice_api.get(f"/games/{view['id']}").json()["state"]
    own = alice_api.get(f"/games/{view['id']}").json()
    assert own["private"]["seat"] == own["your_seat"]


def test_a_stale_version_is_a_409_problem(alice_api: Api, no_bot_tasks: Any) -> None:
    view = started_against_a_bot(alice_api)
    play_bots_until_seat(view["id"], view["your_seat"])
    view = alice_api.get(f"/games/{view['id']}").json()
    answer = alice_api.post(
        f"/games/{view['id']}/actions",
        {"action": {"kind": "roll"}, "expected_version": view["version"] - 1},
    )
    assert answer.status_code == 409
    assert answer["Content-Type"] == "application/problem+json"
    problem = answer.json()
    assert problem["status"] == 409 and problem["type"].endswith("stale-version")
    assert problem["version"] == view["version"]
    assert {"type", "title", "status", "detail"} <= set(problem)


def test_an_illegal_action_is_a_422_problem(alice_api: Api, no_bot_tasks: Any) -> None:
    view = started_against_a_bot(alice_api)
    play_bots_until_seat(view["id"], view["your_seat"])
    view = alice_api.get(f"/games/{view['id']}").json()
    answer = alice_api.post(
        f"/games/{view['id']}/actions",
        {"action": {"kind": "end_turn"}, "expected_version": view["version"]},
    )
    assert answer.status_code == 422, answer.content
    assert answer["Content-Type"] == "application/problem+json"


def test_acting_out_of_turn_is_a_403_problem(alice: User, bob: User, no_bot_tasks: Any) -> None:
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    idle = bob if engine.next_actor(state) == 0 else alice
    answer = api_for(idle).post(
        f"/games/{game.public_id}/actions",
        {"action": {"kind": "roll"}, "expected_version": game.version},
    )
    assert answer.status_code == 403, answer.content
    assert answer.json()["type"].endswith("not-your-turn")


def test_a_malformed_action_is_refused_without_a_server_error(
    alice_api: Api, no_bot_tasks: Any
) -> None:
    view = started_against_a_bot(alice_api)
    path = f"/games/{view['id']}/actions"
    for body in [
        {"action": {"kind": "build", "square": 999}, "expected_version": view["version"]},
        {"action": {"kind": "nonsense"}, "expected_version": view["version"]},
        {"action": {"kind": "roll"}, "expected_version": -1},
        {"action": "roll", "expected_version": 1},
        {"expected_version": 1},
    ]:
        answer = alice_api.post(path, body)
        assert answer.status_code == 422, (body, answer.content)
        assert answer["Content-Type"] == "application/problem+json"
    broken = alice_api.client.post(
        f"/api/v1{path}", data="{not json", content_type="application/json",
        headers=alice_api.headers(),
    )  # fmt: skip
    assert 400 <= broken.status_code < 500


def test_your_games_list_puts_the_ones_waiting_on_you_first(
    alice: User, bob: User, alice_api: Api, no_bot_tasks: Any
) -> None:
    waiting, idle = [], []
    for _ in range(2):
        game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
        services.join_game(public_id=game.public_id, user=bob)
        services.start_game(public_id=game.public_id, user=alice)
        game.refresh_from_db()
        state = engine.from_dict(game.state)
        (waiting if engine.next_actor(state) == 0 else idle).append(game.public_id)
    rows = alice_api.get("/games").json()
    assert [r["id"] for r in rows if r["your_move"]] == [r["id"] for r in rows][: len(waiting)]
    assert {r["id"] for r in rows} == set(waiting + idle)


def test_open_games_lists_public_lobbies_and_a_player_joins_one(alice: User, bob_api: Api) -> None:
    public = services.create_game(host=alice, max_seats=2)
    services.create_game(host=alice, max_seats=2, is_public=False)
    listed = bob_api.get("/games/open").json()
    assert [g["id"] for g in listed] == [public.public_id]
    joined = bob_api.post(f"/games/{public.public_id}/join")
    assert joined.status_code == 200, joined.content
    assert joined.json()["your_seat"] == 1
    again = bob_api.post(f"/games/{public.public_id}/join")
    assert again.status_code == 409


def test_a_player_resigns_through_the_api(alice_api: Api, no_bot_tasks: Any) -> None:
    view = started_against_a_bot(alice_api)
    answer = alice_api.post(f"/games/{view['id']}/resign", {"expected_version": view["version"]})
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "finished"


def test_instant_site_bots_answer_within_the_move_so_each_answer_is_the_next_decision(
    alice_api: Api, no_bot_tasks: Any
) -> None:
    made = alice_api.post("/games", {"seats": 2, "bot_speed": "instant"})
    assert made.status_code == 201, made.content
    assert made.json()["bot_speed"] == "instant"
    game_id = made.json()["id"]
    assert alice_api.post(f"/games/{game_id}/bots", {"kind": "heuristic"}).status_code == 201
    view = alice_api.post(f"/games/{game_id}/start").json()
    # A bot that opens has answered within the start: its answer is her first decision.
    game = Game.objects.get(public_id=game_id)
    assert (game.version, game.auto_move_at) == (view["version"], None)
    assert view["legal_actions"] == alice_api.get(f"/games/{game_id}").json()["legal_actions"]
    version, legal, jumped = view["version"], view["legal_actions"], 0
    for _ in range(40):
        if not legal:
            break
        answer = alice_api.post(
            f"/games/{game_id}/actions", {"action": choose(legal), "expected_version": version}
        )
        assert answer.status_code == 200, answer.content
        jumped += answer.json()["version"] > version + 1
        version, legal = answer.json()["version"], answer.json()["legal_actions"]
        game = Game.objects.get(public_id=game_id)
        # Nothing was left to a task: the answer's version is the game's.
        assert (game.version, game.auto_move_at) == (version, None)
    assert jumped >= 3, "the bot's turns came inside the answers"
    assert alice_api.get(f"/games/{game_id}").json()["legal_actions"] == legal


def test_site_bots_are_paced_unless_asked(alice_api: Api) -> None:
    made = alice_api.post("/games", {"seats": 2})
    assert made.json()["bot_speed"] == "paced"
    assert Game.objects.get(public_id=made.json()["id"]).bot_delay_ms == 1000
    assert alice_api.post("/games", {"seats": 2, "bot_speed": "fast"}).status_code == 422
