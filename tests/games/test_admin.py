"""The admin lists games, seats and events; events cannot be changed there."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game, GameEvent, Seat

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


WRITE_PATH_ONLY = {
    "status": "finished",
    "version": "999",
    "preset": "uk",
    "switches": '{"free_parking_jackpot": true}',
    "state": "{}",
    "seed": "1",
    "invite_token": "chosen-by-staff",
    "is_public": "",
    "max_seats": "8",
    "turn_seconds": "60",
    "time_bank_seconds": "1",
    "time_bank_increment_seconds": "1",
    "claim_window_seconds": "1",
    "bid_window_seconds": "1",
    "trade_expiry_seconds": "1",
    "takeover_after": "0",
    "time_limit_seconds": "1",
    "auto_start": "on",
    "rated_with_bots": "on",
}


def _game_fields(game: Any) -> dict[str, Any]:
    game.refresh_from_db()
    return {name: getattr(game, name) for name in WRITE_PATH_ONLY}


def test_staff_cannot_change_a_game_in_the_admin(staff_client: Client, no_bot_tasks: Any) -> None:
    game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    before = _game_fields(game)
    response = staff_client.post(f"/admin/games/game/{game.pk}/change/", WRITE_PATH_ONLY)
    assert response.status_code == 403
    assert _game_fields(game) == before
    assert staff_client.get("/admin/games/game/add/").status_code == 403


def test_staff_cannot_change_a_seat_or_its_standing_orders(
    staff_client: Client, no_bot_tasks: Any
) -> None:
    game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    seat = game.seats.get(number=0)
    url = f"/admin/games/seat/{seat.pk}/change/"
    response = staff_client.post(
        url, {"status": "winner", "standing_orders": '{"x": 1}', "bank_seconds": "5"}
    )
    assert response.status_code == 403
    seat.refresh_from_db()
    assert seat.status == "playing" and seat.standing_orders == {} and seat.bank_seconds is None
    staff_client.post(f"/admin/games/seat/{seat.pk}/delete/", {"post": "yes"})
    assert game.seats.filter(pk=seat.pk).exists()


def test_the_admin_never_shows_the_seed_secret_state_or_invite_token(
    staff_client: Client, no_bot_tasks: Any
) -> None:
    game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    for url in ("/admin/games/game/", f"/admin/games/game/{game.pk}/change/"):
        body = staff_client.get(url).content.decode()
        assert str(game.seed) not in body, url
        assert game.invite_token not in body, url
        assert '"rng"' not in body and "&quot;rng&quot;" not in body, url
        assert game.secret and game.secret not in body, url


def test_staff_delete_a_game_with_its_seats_and_events_through_the_services(
    staff_client: Client, no_bot_tasks: Any
) -> None:
    game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    assert GameEvent.objects.filter(game=game).exists()
    response = staff_client.post(f"/admin/games/game/{game.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302  # the guard (raising in tests) let it through
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Seat.objects.filter(game_id=game.pk).exists()
    assert not GameEvent.objects.filter(game_id=game.pk).exists()


def test_a_rated_game_cannot_be_deleted(staff_client: Client) -> None:
    from ratings.services import rate_game
    from tests.ratings.test_ratings import finished_game, make_user

    game = finished_game({make_user("ann"): 1, make_user("ben"): 2})
    assert rate_game(game)
    assert (
        staff_client.post(f"/admin/games/game/{game.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    with pytest.raises(services.NotAllowed, match="rated game"):
        services.delete_game(game_pk=game.pk)
    assert Game.objects.filter(pk=game.pk).exists()
