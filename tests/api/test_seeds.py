"""The API's dice seeds: given on create and join, changed until the start,
shown to their own player only."""

from __future__ import annotations

from typing import Any

from games.models import Game
from tests.api.conftest import Api

A_SEED = "a1" * 32
B_SEED = "b2" * 24


def test_create_and_join_take_a_seed_and_each_player_sees_only_their_own(
    alice_api: Api, bob_api: Api, charlie_api: Api
) -> None:
    created = alice_api.post("/games", {"seats": 2, "seed": A_SEED})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert created.json()["your_seed"] == A_SEED
    commitment = created.json()["commitment"]
    assert commitment and len(commitment) == 64
    joined = bob_api.post(f"/games/{game_id}/join", {"seed": B_SEED})
    assert joined.status_code == 200, joined.content
    view = joined.json()
    assert view["your_seed"] == B_SEED and A_SEED not in joined.content.decode()
    assert [p["seeded"] for p in view["players"]] == [True, True]
    watcher = charlie_api.get(f"/games/{game_id}").json()
    assert watcher["your_seed"] is None and watcher["commitment"] == commitment
    assert Game.objects.get(public_id=game_id).seats.get(number=1).seed == B_SEED


def test_a_seed_changes_until_the_start_and_is_refused_after(
    alice_api: Api, bob_api: Api, no_bot_tasks: Any
) -> None:
    game_id = alice_api.post("/games", {"seats": 2}).json()["id"]
    bob_api.post(f"/games/{game_id}/join")
    assert bob_api.get(f"/games/{game_id}").json()["your_seed"] is None
    changed = bob_api.post(f"/games/{game_id}/seed", {"seed": B_SEED})
    assert changed.status_code == 200 and changed.json()["your_seed"] == B_SEED
    removed = bob_api.post(f"/games/{game_id}/seed", {"seed": None})
    assert removed.status_code == 200 and removed.json()["your_seed"] is None
    bob_api.post(f"/games/{game_id}/seed", {"seed": B_SEED})
    assert alice_api.post(f"/games/{game_id}/start").status_code == 200
    # No seed leaves the server while the game runs, not even to its player.
    assert bob_api.get(f"/games/{game_id}").json()["your_seed"] is None
    late = bob_api.post(f"/games/{game_id}/seed", {"seed": A_SEED})
    assert late.status_code == 409 and "already started" in late.json()["detail"]
    assert Game.objects.get(public_id=game_id).seeds == ["", B_SEED]


def test_a_malformed_seed_is_a_clear_422(alice_api: Api) -> None:
    game_id = alice_api.post("/games", {"seats": 2}).json()["id"]
    refused = alice_api.post(f"/games/{game_id}/seed", {"seed": "12345"})
    assert refused.status_code == 422 and "seed" in refused.json()["detail"]
    too_long = alice_api.post("/games", {"seats": 2, "seed": "ab" * 65})
    assert too_long.status_code == 422
    assert Game.objects.get(public_id=game_id).seats.get().seed == ""


def test_a_spectator_cannot_set_a_seed(alice_api: Api, charlie_api: Api) -> None:
    game_id = alice_api.post("/games", {"seats": 2}).json()["id"]
    refused = charlie_api.post(f"/games/{game_id}/seed", {"seed": A_SEED})
    assert refused.status_code == 409 and "no seat" in refused.json()["detail"]
