"""Per-token rate limits: a 429 problem with Retry-After once a token's
budget is spent; other tokens keep theirs; reads and writes apart; the
window resets."""

from __future__ import annotations

import time
from typing import Any

import pytest

from accounts.models import User
from common.env import Rate
from tests.api.conftest import Api, api_for


@pytest.fixture
def budgets(settings: Any) -> None:
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api_read": (Rate(3, 2, "token"),),
        "api_write": (Rate(2, 60, "token"),),
    }


def spend(api: Api, times: int) -> list[int]:
    return [api.get("/games").status_code for _ in range(times)]


def test_a_token_over_its_budget_gets_429_and_another_token_does_not(
    alice: User, budgets: None
) -> None:
    first, second = api_for(alice), api_for(alice)
    assert spend(first, 3) == [200, 200, 200]
    refused = first.get("/games")
    assert refused.status_code == 429
    assert refused["Content-Type"] == "application/problem+json"
    assert 1 <= int(refused["Retry-After"]) <= 2
    assert refused.json()["type"].endswith("/rate-limited")
    assert "reading too quickly" in refused.json()["detail"]
    assert second.get("/games").status_code == 200


def test_reads_and_writes_have_budgets_of_their_own(alice: User, budgets: None) -> None:
    api = api_for(alice)
    assert spend(api, 3) == [200, 200, 200]
    assert api.post("/games", {"seats": 2}).status_code == 201
    assert api.post("/games", {"seats": 2}).status_code == 201
    refused = api.post("/games", {"seats": 2})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 2
    assert "writing too quickly" in refused.json()["detail"]
    assert alice.hosted_games.count() == 2


def test_the_window_resets(alice: User, budgets: None) -> None:
    api = api_for(alice)
    spend(api, 3)
    assert api.get("/games").status_code == 429
    deadline = time.monotonic() + 10
    while api.get("/games").status_code == 429:
        assert time.monotonic() < deadline, "the read window never reset"
        time.sleep(0.2)
