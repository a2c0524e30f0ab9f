"""Records and data: a finished game's record (its secret revealed), the
leaderboards of both pools, profiles and the watch list."""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils import timezone

from accounts.bot import set_bot_account
from accounts.models import User
from games import engine, services
from games.models import Game
from ratings.models import PlayerRating, Pool
from tests.api.conftest import Api, api_for
from tests.games.conftest import _started


def finished(host: User, other: User, *, is_public: bool = True) -> Game:
    game = _started(host, other, is_public=is_public)
    services.resign(public_id=game.public_id, user=other, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_finished_games_record_reveals_its_secret(
    alice: User, bob: User, alice_api: Api, no_bot_tasks: Any
) -> None:
    game = finished(alice, bob)
    answer = alice_api.get(f"/games/{game.public_id}/record.json")
    assert answer.status_code == 200
    record = answer.json()
    assert record["game"] == game.public_id
    assert record["secret"] == game.secret
    assert hashlib.sha256(bytes.fromhex(record["secret"])).hexdigest() == game.commitment
    engine.verify_record(record)


def test_a_running_game_has_no_record_yet(
    alice: User, bob: User, charlie_api: Api, no_bot_tasks: Any
) -> None:
    game = _started(alice, bob)
    answer = charlie_api.get(f"/games/{game.public_id}/record.json")
    assert answer.status_code == 409
    assert "still in play" in answer.json()["detail"]
    assert game.secret not in answer.content.decode()


def test_another_users_private_record_does_not_exist(
    alice: User, bob: User, charlie_api: Api, no_bot_tasks: Any
) -> None:
    game = finished(alice, bob, is_public=False)
    assert charlie_api.get(f"/games/{game.public_id}/record.json").status_code == 404


def test_the_leaderboard_of_each_pool(alice: User, bob: User, charlie: User) -> None:
    set_bot_account(charlie, True)
    now = timezone.now()
    PlayerRating.objects.create(
        user=alice, pool=Pool.REGULAR, ordinal=5.0, games=12, last_game_at=now
    )
    PlayerRating.objects.create(user=bob, pool=Pool.REGULAR, ordinal=1.0, games=3, last_game_at=now)
    PlayerRating.objects.create(
        user=charlie, pool=Pool.BOT, ordinal=2.0, games=10, last_game_at=now
    )
    api = api_for(bob, "read")
    regular = api.get("/leaderboard").json()
    assert [r["username"] for r in regular["rows"]] == ["alice"]
    assert regular["rows"][0]["rank"] == 1
    assert [r["username"] for r in regular["provisional"]] == ["bob"]
    assert set(regular["pools"]) == {"regular", "short", "bot"}
    bots = api.get("/leaderboard?pool=bot").json()
    assert [(r["username"], r["bot_account"]) for r in bots["rows"]] == [("charlie", True)]
    assert api.get("/leaderboard?pool=nonsense").status_code == 422


def test_a_profile_has_ratings_games_and_the_bot_flag(
    alice: User, bob: User, charlie_api: Api, no_bot_tasks: Any
) -> None:
    game = finished(alice, bob)
    set_bot_account(bob, True)
    answer = charlie_api.get("/users/bob")
    assert answer.status_code == 200
    profile = answer.json()
    assert profile["bot_account"] is True
    assert profile["recent_games"] == [game.public_id]
    assert profile["ratings"]["regular"]["games"] == 1
    assert profile["ratings"]["bot"] is None
    assert charlie_api.get("/users/nobody").status_code == 404


def test_the_watch_list_has_public_games_in_play_only(
    alice: User, bob: User, charlie: User, charlie_api: Api, no_bot_tasks: Any
) -> None:
    public = _started(alice, bob)
    _started(bob, charlie, is_public=False)
    rows = charlie_api.get("/watch").json()
    assert [row["id"] for row in rows] == [public.public_id]
    assert [p["name"] for p in rows[0]["players"]] == ["alice", "bob"]
    assert rows[0]["turn"] == 1
