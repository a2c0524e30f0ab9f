from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from clubs import services
from clubs.models import Club, Membership
from tests.people.conftest import PASSWORD, alice, bob, make_user

__all__ = ["PASSWORD", "alice", "bob", "client_for", "make_user", "member"]


@pytest.fixture(autouse=True)
def nobody_is_new(settings: Any) -> None:
    """Every account may reach anyone unless a test makes it new again."""
    settings.NEWCOMER_DAYS = 0
    settings.NEWCOMER_GAMES = 0


@pytest.fixture
def leader(db: None) -> User:
    return make_user("lena")


@pytest.fixture
def club(leader: User) -> Club:
    return services.do_create_club(user=leader, name="Park Place Society")


def member(club: Club, user: User) -> Membership:
    """``user`` a member of ``club`` (test setup, whatever its policy)."""
    return Membership.objects.create(club=club, user=user, status=Membership.Status.MEMBER)


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client
