from __future__ import annotations

import pytest

from accounts.models import User

PASSWORD = "correct-horse-battery-42"


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", "alice@example.com", PASSWORD, display_name="Alice A.")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", "bob@example.com", PASSWORD)
