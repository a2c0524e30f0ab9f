"""Who may do what: no token 401, a missing scope 403, another user's
private game 404."""

from __future__ import annotations

from typing import Any

from accounts.bot import set_bot_account
from accounts.models import User
from games import services
from tests.api.conftest import Api, api_for


def test_no_token_is_a_401_problem(alice: User) -> None:
    for answer in (Api(None).get("/games"), Api(None).post("/games", {})):
        assert answer.status_code == 401
        assert answer["Content-Type"] == "application/problem+json"
        assert answer["WWW-Authenticate"].startswith("Bearer")
        assert answer.json()["status"] == 401


def test_a_read_token_cannot_create_a_game(alice: User) -> None:
    answer = api_for(alice, "read").post("/games", {"seats": 2})
    assert answer.status_code == 403
    assert answer.json()["type"].endswith("scope")


def test_a_play_token_cannot_read(alice: User) -> None:
    assert api_for(alice, "play").get("/games").status_code == 403


def test_a_bot_scope_does_nothing_for_an_account_that_is_no_longer_a_bot(alice: User) -> None:
    set_bot_account(alice, True)
    api = api_for(alice, "bot")
    assert api.get("/games").status_code == 200
    set_bot_account(alice, False)
    assert api.get("/games").status_code == 403
    refused = api.post("/games", {"seats": 2})
    assert refused.status_code == 403
    assert "only for bot accounts" in refused.json()["detail"]


def test_another_users_private_game_does_not_exist_for_you(
    alice: User, bob: User, charlie: User, no_bot_tasks: Any
) -> None:
    game = services.create_game(host=alice, max_seats=2, is_public=False, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob, invite_token=game.invite_token)
    services.start_game(public_id=game.public_id, user=alice)
    stranger = api_for(charlie)
    path = f"/games/{game.public_id}"
    for answer in (
        stranger.get(path),
        stranger.post(f"{path}/join"),
        stranger.post(f"{path}/start"),
        stranger.post(f"{path}/bots", {"kind": "heuristic"}),
        stranger.post(f"{path}/resign", {}),
        stranger.post(f"{path}/actions", {"action": {"kind": "roll"}, "expected_version": 1}),
    ):
        assert answer.status_code == 404, answer.content
        assert answer["Content-Type"] == "application/problem+json"
    assert api_for(bob).get(path).status_code == 200


def test_a_spectator_cannot_act_in_a_public_game(
    alice: User, bob: User, charlie: User, no_bot_tasks: Any
) -> None:
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    before = game.version
    answer = api_for(charlie).post(
        f"/games/{game.public_id}/actions",
        {"action": {"kind": "roll"}, "expected_version": game.version},
    )
    assert answer.status_code == 403
    assert answer.json()["type"].endswith("not-a-player")
    game.refresh_from_db()
    assert game.version == before


def test_only_the_host_adds_bots_and_starts(alice: User, bob: User) -> None:
    game = services.create_game(host=alice, max_seats=3)
    bob_api = api_for(bob)
    assert bob_api.post(f"/games/{game.public_id}/join").status_code == 200
    assert bob_api.post(f"/games/{game.public_id}/bots", {"kind": "random"}).status_code == 403
    assert bob_api.post(f"/games/{game.public_id}/start").status_code == 403
