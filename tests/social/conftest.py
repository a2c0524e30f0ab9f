from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from accounts.models import User
from games.models import Game
from live.models import ChatMessage
from tests.games.conftest import charlie, duel, edit_state, no_bot_tasks, private_duel
from tests.people.conftest import PASSWORD, make_user

__all__ = [
    "PASSWORD",
    "charlie",
    "duel",
    "edit_state",
    "make_user",
    "no_bot_tasks",
    "private_duel",
]


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


def moderators() -> Group:
    """The group the data migration makes; made again after a transactional
    test's flush emptied the tables."""
    group, _ = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(
        Permission.objects.get(content_type__app_label="people", codename="moderate")
    )
    return group


def make_moderator(name: str) -> User:
    user = User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-12345")
    user.groups.add(moderators())
    return user


@pytest.fixture
def moderator(db: None) -> User:
    return make_moderator("mod")


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def say(game: Game, author: User, body: str, room: str = "players") -> ChatMessage:
    return ChatMessage.objects.create(game=game, room=room, author=author, body=body)
