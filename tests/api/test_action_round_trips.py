"""An API action's round trips: one transaction, no savepoint inside it."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import engine, services
from games.models import Game
from tests.api.conftest import Api, api_for

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.mark.skipif(not ON_POSTGRES, reason="the lock reads in one round trip on PostgreSQL only")
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_bot_tasks")
def test_an_api_action_is_one_transaction_without_savepoints(alice: User, bob: User) -> None:
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    mover = alice if engine.next_actor(state) == 0 else bob
    api = api_for(mover)
    body = {"action": {"kind": "roll"}, "expected_version": game.version}
    with CaptureQueriesContext(connection) as queries:
        answer = api.post(f"/games/{game.public_id}/actions", body, {"Idempotency-Key": "k1"})
    assert answer.status_code == 200, answer.content
    sql = [q["sql"] for q in queries]
    assert not [s for s in sql if "SAVEPOINT" in s], sql
    assert sum(1 for s in sql if s == "COMMIT") == 1
    # The token, the lock (with the seats and deadline rows), the seat's
    # counters, the game row, the events, the deadline rows' diff, the key's
    # answer; with BEGIN and COMMIT.
    assert len(sql) <= 11, [s[:60] for s in sql]
    assert Game.objects.get(pk=game.pk).version == game.version + 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_bot_tasks")
def test_a_refused_api_action_changes_nothing_and_leaves_the_connection_usable(
    alice: User, bob: User
) -> None:
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    api = api_for(alice)
    stale = {"action": {"kind": "roll"}, "expected_version": game.version - 1}
    answer = api.post(f"/games/{game.public_id}/actions", stale, {"Idempotency-Key": "k2"})
    assert answer.status_code in (403, 409), answer.content
    assert Game.objects.get(pk=game.pk).version == game.version
    assert api.get(f"/games/{game.public_id}").status_code == 200


@pytest.mark.django_db
def test_an_api_request_counts_its_rate_limits_in_one_round_trip(
    alice: User, settings: Any
) -> None:
    from common.cache import RedisCache
    from common.env import Rate

    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api_read": [Rate(100, 10, "token")],
        "token_failed": [Rate(5, 600, "ip")],
    }
    api = api_for(alice)
    with mock.patch.object(
        RedisCache, "count_windows", autospec=True, side_effect=RedisCache.count_windows
    ) as counted:
        assert api.get("/me").status_code == 200
    assert counted.call_count == 1
    # The address's failed tokens were looked at, the token's budget counted.
    ((_, windows), kwargs) = counted.call_args
    assert [key.split(":")[1] for key, _ in windows] == ["token_failed", "api_read"]
    assert list(kwargs["count"]) == [False, True]


@pytest.mark.django_db
def test_an_address_that_failed_too_often_is_refused_even_with_a_good_token(
    alice: User, settings: Any
) -> None:
    from common.env import Rate

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "token_failed": [Rate(2, 600, "ip")]}
    good = api_for(alice)
    bad = Api("mnp_000000000000_nothing")
    assert [bad.get("/me").status_code for _ in range(3)] == [401, 401, 429]
    assert good.get("/me").status_code == 429
