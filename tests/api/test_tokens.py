"""Personal API tokens: stored hashed, shown once, revoked at once."""

from __future__ import annotations

import hashlib
import io

from django.core.management import call_command
from django.test import Client

from accounts.models import User
from api import tokens
from api.models import ApiToken
from tests.api.conftest import Api


def test_a_token_is_stored_as_its_hash_with_a_short_prefix(alice: User) -> None:
    row, token = tokens.issue(alice, scopes=["read"], name="laptop")
    stored = ApiToken.objects.get(pk=row.pk)
    assert stored.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token.startswith(f"mnp_{stored.prefix}_")
    assert len(stored.prefix) == 12
    secret = token.split("_", 2)[2]
    assert all(secret not in str(value) for value in stored.__dict__.values())
    assert stored.scopes == ["read"]
    assert tokens.authenticate(token) == stored


def test_a_wrong_secret_with_a_real_prefix_is_refused(alice: User) -> None:
    row, _ = tokens.issue(alice, scopes=["read"])
    forged = f"mnp_{row.prefix}_{'A' * 43}"
    assert tokens.authenticate(forged) is None
    assert Api(forged).get("/games").status_code == 401


def test_revoking_a_token_refuses_it_at_once(alice: User) -> None:
    row, token = tokens.issue(alice, scopes=["read"])
    api = Api(token)
    assert api.get("/games").status_code == 200
    assert tokens.revoke(alice, row.pk)
    answer = api.get("/games")
    assert answer.status_code == 401
    assert answer["Content-Type"] == "application/problem+json"


def test_one_cannot_revoke_another_users_token(alice: User, bob: User) -> None:
    row, token = tokens.issue(alice, scopes=["read"])
    assert not tokens.revoke(bob, row.pk)
    assert Api(token).get("/games").status_code == 200


def test_the_command_prints_the_token_alone_on_its_last_line(alice: User) -> None:
    out = io.StringIO()
    call_command("create_api_token", "alice", "--scopes", "read", "--name", "ci", stdout=out)
    last = out.getvalue().strip().splitlines()[-1]
    assert Api(last).get("/games").status_code == 200
    assert ApiToken.objects.get(user=alice).name == "ci"


def test_the_settings_page_makes_a_token_shown_once_and_revokes_it(alice: User) -> None:
    client = Client(enforce_csrf_checks=False)
    client.force_login(alice)
    page = client.get("/settings/")
    assert b"API tokens" in page.content
    made = client.post("/settings/api-tokens/new", {"name": "bot", "scopes": ["read", "play"]})
    assert made.status_code == 200
    assert made["Cache-Control"] == "no-store"
    row = ApiToken.objects.get(user=alice)
    token = made.context["token"]
    assert token.encode() in made.content
    assert row.scopes == ["play", "read"]
    again = client.get("/settings/")
    assert token.encode() not in again.content
    assert row.prefix.encode() in again.content
    assert Api(token).get("/games").status_code == 200
    client.post(f"/settings/api-tokens/{row.pk}/revoke")
    assert Api(token).get("/games").status_code == 401


def test_the_settings_forms_need_the_csrf_token(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    refused = client.post("/settings/api-tokens/new", {"scopes": ["read"]})
    assert refused.status_code == 403
    assert not ApiToken.objects.filter(user=alice).exists()
