from __future__ import annotations

from typing import Any

import pytest

from tests.people.conftest import PASSWORD, make_user

__all__ = ["PASSWORD", "make_user"]


@pytest.fixture(autouse=True)
def nobody_is_new(settings: Any) -> None:
    """Every account may reach anyone unless a test makes it new again."""
    settings.NEWCOMER_DAYS = 0
    settings.NEWCOMER_GAMES = 0
