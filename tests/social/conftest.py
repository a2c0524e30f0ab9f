"""People, a started duel and a moderator (in the "Moderators" group the
data migration makes) for the reports and moderation tests."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import User
from games.models import Game
from live.models import ChatMessage
from tests.games.conftest import alice, bob, charlie, duel, edit_state, no_bot_tasks, private_duel

__all__ = ["alice", "bob", "charlie", "duel", "edit_state", "no_bot_tasks", "private_duel"]


@pytest.fixture
def moderator(db: None) -> User:
    user = User.objects.create_user("mod", "mod@example.com", "pw-mod-12345")
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def say(game: Game, author: User, body: str, room: str = "players") -> ChatMessage:
    return ChatMessage.objects.create(game=game, room=room, author=author, body=body)
