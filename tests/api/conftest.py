"""The API's tests: people and games from the game tests, tokens, and a
client that speaks the API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from api import tokens
from tests.games.conftest import alice, bob, charlie, duel, no_bot_tasks

__all__ = ["alice", "bob", "charlie", "duel", "no_bot_tasks"]


class Api:
    """Calls ``/api/v1/`` with one token."""

    def __init__(self, token: str | None) -> None:
        self.token = token
        self.client = Client()

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        out = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return {**out, **(extra or {})}

    def get(self, path: str) -> Any:
        return self.client.get(f"/api/v1{path}", headers=self.headers())

    def post(self, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        return self.client.post(
            f"/api/v1{path}",
            data=json.dumps({} if body is None else body),
            content_type="application/json",
            headers=self.headers(headers),
        )


@pytest.fixture(autouse=True)
def unlimited_api(settings: Any) -> None:
    """The API's rate limits off, but where a test sets its own
    (``tests/api/test_rate_limits.py``, ``test_token_security.py``):
    schemathesis and the concurrency tests send more than a token's budget,
    and bad tokens from one address."""
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "api_read": (),
        "api_write": (),
        "token_failed": (),
    }


def api_for(user: User, scopes: str = "play,read") -> Api:
    _, token = tokens.issue(user, scopes=scopes.split(","))
    return Api(token)


@pytest.fixture
def alice_api(alice: User) -> Api:
    return api_for(alice)


@pytest.fixture
def bob_api(bob: User) -> Api:
    return api_for(bob)


@pytest.fixture
def charlie_api(charlie: User) -> Api:
    return api_for(charlie)
