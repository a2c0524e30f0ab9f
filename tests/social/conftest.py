"""People, a started duel and a moderator (in the "Moderators" group the
data migration makes) for the reports and moderation tests."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from accounts.models import User
from games.models import Game
from live.models import ChatMessage
from tests.games.conftest import alice, bob, charlie, duel, edit_state, no_bot_tasks, private_duel

__all__ = ["alice", "bob", "charlie", "duel", "edit_state", "no_bot_tasks", "private_duel"]


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
