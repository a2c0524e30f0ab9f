"""Tokens after a password change, and guessing them: a new password
revokes the account's tokens (the form warns first, the page says so
after); bad tokens are limited per address, on the API and its streams."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from accounts.models import User
from api import tokens
from common.env import env_rates
from tests.api.conftest import Api
from tests.api.streams import served
from tests.live.conftest import run

PASSWORD = "pw-alice-123"  # tests.games.conftest's


def limit(settings: Any, rates: str) -> None:
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "token_failed": env_rates("TEST", rates, {"ip"}, environ={}),
    }


def test_changing_the_password_revokes_the_accounts_tokens_and_says_so(
    alice: User, bob: User
) -> None:
    _, first = tokens.issue(alice, scopes=["read"])
    _, second = tokens.issue(alice, scopes=["play", "read"])
    _, bobs = tokens.issue(bob, scopes=["read"])
    client = Client()
    client.force_login(alice)
    assert "Changing your password revokes all of your tokens" in (
        client.get("/settings/").content.decode()
    )
    form = client.get("/accounts/password/change/").content.decode()
    assert "also revokes your 2 API tokens" in form
    new = "a-new-password-991"
    changed = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": new, "password2": new},
    )
    assert changed.status_code == 302
    said = [str(m) for m in get_messages(changed.wsgi_request)]
    assert any("2 API tokens were revoked" in m for m in said), said
    assert Api(first).get("/games").status_code == 401
    assert Api(second).get("/games").status_code == 401
    assert Api(bobs).get("/games").status_code == 200
    # A token made with the new password works.
    _, fresh = tokens.issue(alice, scopes=["read"])
    assert Api(fresh).get("/games").status_code == 200


def test_a_password_set_anywhere_else_revokes_the_tokens_too(alice: User) -> None:
    _, token = tokens.issue(alice, scopes=["read"])
    alice.last_login = None
    alice.save(update_fields=["last_login"])  # not a password change
    assert Api(token).get("/games").status_code == 200
    alice.set_password("reset-by-the-admin-5")  # the admin, changepassword, a reset
    alice.save()
    assert Api(token).get("/games").status_code == 401


def test_bad_tokens_are_limited_per_address(settings: Any, alice: User) -> None:
    limit(settings, "3/10m/ip")
    _, good = tokens.issue(alice, scopes=["read"])
    guesser = Client(REMOTE_ADDR="10.0.0.9")
    bad = {"Authorization": "Bearer mnp_000000000000_guess"}
    for _ in range(3):
        assert guesser.get("/api/v1/games", headers=bad).status_code == 401
    refused = guesser.get("/api/v1/games", headers=bad)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 600
    assert "wrong or revoked API token" in refused.json()["detail"]
    # While the count is full even the right token is refused from there…
    right = {"Authorization": f"Bearer {good}"}
    assert guesser.get("/api/v1/games", headers=right).status_code == 429
    # …and works from anywhere else.
    assert Client(REMOTE_ADDR="10.0.0.10").get("/api/v1/games", headers=right).status_code == 200


def test_requests_without_a_token_are_not_counted(settings: Any, alice: User) -> None:
    limit(settings, "2/10m/ip")
    _, good = tokens.issue(alice, scopes=["read"])
    client = Client(REMOTE_ADDR="10.0.0.11")
    for _ in range(4):
        assert client.get("/api/v1/games").status_code == 401
    right = {"Authorization": f"Bearer {good}"}
    assert client.get("/api/v1/games", headers=right).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_streams_count_bad_tokens_per_address_too(settings: Any, alice: User) -> None:
    limit(settings, "2/10m/ip")
    _, good = tokens.issue(alice, scopes=["read"])

    def status(token: str, address: str) -> tuple[int, dict[str, str]]:
        async def scenario() -> list[dict[str, Any]]:
            bearer = {"Authorization": f"Bearer {token}"}
            return await served("/api/v1/stream/events", bearer, "follow=false", address)

        sent = run(scenario)
        return sent[0]["status"], {k.decode(): v.decode() for k, v in sent[0]["headers"]}

    for _ in range(2):
        assert status("mnp_000000000000_guess", "10.0.0.12")[0] == 401
    limited, headers = status(good, "10.0.0.12")
    assert limited == 429 and "retry-after" in headers
    assert status(good, "10.0.0.13")[0] == 200
