from __future__ import annotations

import pytest

from accounts.models import User

PASSWORD = "correct-horse-battery-42"


def make_user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", PASSWORD)


@pytest.fixture
def alice(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return make_user("bob")


@pytest.fixture
def carol(db: None) -> User:
    return make_user("carol")
