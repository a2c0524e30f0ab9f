from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from tests.people.conftest import PASSWORD, make_user

__all__ = ["PASSWORD", "make_user"]


@pytest.fixture(autouse=True)
def nobody_is_new(settings: Any) -> None:
    """Every account may write to anyone unless a test makes it new again."""
    settings.NEWCOMER_DAYS = 0
    settings.NEWCOMER_GAMES = 0


@pytest.fixture
def alice(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return make_user("bob")


@pytest.fixture
def carol(db: None) -> User:
    return make_user("carol")


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client
