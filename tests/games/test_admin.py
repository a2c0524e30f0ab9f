"""The admin lists games, seats and events; events cannot be changed there."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import GameEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client: Client) -> Client:
    admin = User.objects.create_superuser("root", "root@example.com", "pw-root-12345")
    client.force_login(admin)
    return client


def test_admin_lists_games_seats_and_events(staff_client: Client, no_bot_tasks: Any) -> None:
    game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    for url in ("/admin/games/game/", "/admin/games/seat/", "/admin/games/gameevent/",
                f"/admin/games/game/{game.pk}/change/", "/admin/ratings/playerrating/"):  # fmt: skip
        assert staff_client.get(url).status_code == 200, url


def test_events_are_read_only_in_the_admin(staff_client: Client, no_bot_tasks: Any) -> None:
    game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    event = GameEvent.objects.filter(game=game).first()
    assert event is not None
    assert staff_client.get("/admin/games/gameevent/add/").status_code == 403
    staff_client.post(f"/admin/games/gameevent/{event.pk}/delete/", {"post": "yes"})
    assert GameEvent.objects.filter(pk=event.pk).exists()
    page = staff_client.get(f"/admin/games/gameevent/{event.pk}/change/")
    assert page.status_code == 200 and b'name="kind"' not in page.content
