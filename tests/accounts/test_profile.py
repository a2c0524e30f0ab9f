from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import services
from tests.conftest import setup_writes

pytestmark = pytest.mark.django_db


def test_profile_shows_display_name_and_rating(client: Client, alice: User) -> None:
    response = client.get("/u/alice/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Alice A." in body
    assert "@alice" in body
    assert "No rated games" in body


def test_profile_of_unknown_user_is_404(client: Client) -> None:
    assert client.get("/u/nobody/").status_code == 404


def test_profile_of_inactive_user_is_404(client: Client, alice: User) -> None:
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert client.get("/u/alice/").status_code == 404


def test_settings_requires_login(client: Client) -> None:
    response = client.get("/settings/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_settings_saves_display_name_notifications_and_time_zone(
    client: Client, alice: User
) -> None:
    client.force_login(alice)
    response = client.post(
        "/settings/",
        {"display_name": "Queen of Mayfair", "time_zone": "Europe/London"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Queen of Mayfair"
    assert alice.email_notifications is False  # an unticked checkbox is off
    assert alice.time_zone == "Europe/London"


def test_settings_rejects_unknown_time_zone_and_changes_nothing(
    client: Client, alice: User
) -> None:
    client.force_login(alice)
    response = client.post(
        "/settings/",
        {"display_name": "New", "email_notifications": "on", "time_zone": "Mars/Olympus"},
    )
    assert response.status_code == 200
    assert b"Select a valid choice" in response.content
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."
    assert alice.time_zone == ""  # automatic: the browser's


def test_settings_rejects_markup_in_display_name(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/settings/", {"display_name": "<b>x</b>", "time_zone": "UTC"})
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."


def test_pages_use_the_users_time_zone(client: Client, alice: User) -> None:
    alice.time_zone = "Asia/Tokyo"
    alice.save(update_fields=["time_zone"])
    client.force_login(alice)
    client.get("/u/alice/")
    assert timezone.get_current_timezone_name() in {"Asia/Tokyo", "UTC"}


def test_navigation_links_to_lobby_watch_leaderboard(client: Client) -> None:
    body = client.get("/").content.decode()
    for href in ("/lobby/", "/watch/", "/leaderboard/", "/accounts/login/", "/accounts/signup/"):
        assert f'href="{href}"' in body
    assert 'hx-headers=\'{"X-CSRFToken"' in body
    assert "vendor/htmx" in body


def test_profile_shows_share_of_decisions_made_on_time(client: Client, alice: User) -> None:
    from games.models import Game, Seat

    with setup_writes("a finished game with counted decisions"):
        game = Game.objects.create(status=Game.Status.FINISHED)
        Seat.objects.create(game=game, number=0, user=alice, decisions_total=9, timeouts_total=1)
    body = client.get("/u/alice/").content.decode()
    assert "90%" in body and "of 10" in body


def test_posted_decisions_are_counted(client: Client, alice: User) -> None:
    from unittest import mock

    from games import engine, services

    with mock.patch("games.scheduling.schedule_bots"):
        game = services.create_seated_game(humans=[alice], bots=["heuristic"], start=True)
    seat = game.seats.get(user=alice)
    state = engine.from_dict(game.state)
    state = engine.setup(state, turn=seat.number)  # test setup: alice to roll
    game.state = engine.to_dict(state)
    with setup_writes("alice to roll"):
        game.save(update_fields=["state"])
    services.submit_action(
        public_id=game.public_id, user=alice, action={"kind": "roll"}, expected_version=game.version
    )
    seat.refresh_from_db()
    assert seat.decisions_total == 1


def test_settings_say_when_the_daily_digest_is_sent(
    client: Client, alice: User, settings: object
) -> None:
    settings.DIGEST_HOUR = 7  # type: ignore[attr-defined]
    client.force_login(alice)
    body = client.get("/settings/").content.decode()
    assert "each day at 07:00 in my time zone" in body


def test_profile_shows_net_worth_as_money(client: Client, alice: User, bob: User) -> None:
    game = services.create_seated_game(humans=[alice, bob], bots=[], start=True)
    services.resign(public_id=game.public_id, user=bob, expected_version=game.version)
    body = client.get("/u/alice/").content.decode()
    assert "<td>$1,500</td>" in body
    assert "<td>1500</td>" not in body
