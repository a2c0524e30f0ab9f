"""The timer pages: countdowns, standing orders, reclaiming, vacation,
notifications and the create form's timer settings."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import engine
from games.models import Game, Seat
from notifications.models import Notification
from tests.conftest import setup_writes

pytestmark = pytest.mark.django_db


def login(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def test_the_game_page_shows_a_countdown_per_deadline(
    client: Client, duel: Game, alice: Any, no_bot_tasks: Any
) -> None:
    body = login(client, alice).get(duel.get_absolute_url()).content.decode()
    assert "Deadlines" in body and "data-countdown" in body
    assert 'id="standing-orders"' in body


def test_a_deadline_is_shown_on_the_readers_clock_with_its_moment_for_the_browser(
    client: Client, duel: Game, alice: Any, no_bot_tasks: Any
) -> None:
    import re
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from games.deadlines import format_deadline

    alice.time_zone = "Pacific/Kiritimati"  # UTC+14: any slip shows
    alice.save(update_fields=["time_zone"])
    body = login(client, alice).get(duel.get_absolute_url()).content.decode()
    due = duel.deadlines.order_by("due_at").first()
    assert due is not None
    # The page is drawn in the reader's zone; the moment itself goes along
    # so that static/js/countdown.js can write pushed regions (drawn once,
    # in UTC, for many viewers) in the same shape on the browser's clock.
    shown = re.findall(r'<time data-local datetime="([^"]+)">([^<]+)</time>', body)
    moments = {(datetime.fromisoformat(at).replace(microsecond=0), text) for at, text in shown}
    expected = format_deadline(due.due_at, ZoneInfo("Pacific/Kiritimati"))
    assert expected.endswith("GMT+14")
    assert (due.due_at.replace(microsecond=0), expected) in moments


def test_a_spectator_sees_countdowns_but_no_standing_orders(
    client: Client, duel: Game, charlie: Any, no_bot_tasks: Any
) -> None:
    body = login(client, charlie).get(duel.get_absolute_url()).content.decode()
    assert "data-countdown" in body and 'id="standing-orders"' not in body


def test_standing_orders_are_saved_from_the_form(
    client: Client, duel: Game, no_bot_tasks: Any
) -> None:
    waiting = 1 - engine.from_dict(duel.state).turn
    seat = duel.seats.get(number=waiting)
    response = login(client, seat.user).post(
        f"{duel.get_absolute_url()}orders",
        {"claim_rent": "on", "buy": "on", "buy_min_cash_left": "300", "auction": "printed",
         "jail": "pay"},
    )  # fmt: skip
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.standing_orders["claim_rent"] is True
    assert seat.standing_orders["buy_min_cash_left"] == 300
    assert seat.standing_orders["auction"] == "printed"
    assert seat.standing_orders["jail"] == "pay"


def test_standing_orders_refuse_an_auction_limit_without_an_amount(
    client: Client, duel: Game, alice: Any, no_bot_tasks: Any
) -> None:
    response = login(client, alice).post(
        f"{duel.get_absolute_url()}orders", {"auction": "upto"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    assert "Say how high to bid." in response.content.decode()


def test_standing_orders_require_a_seat(client: Client, duel: Game, charlie: Any) -> None:
    response = login(client, charlie).post(f"{duel.get_absolute_url()}orders", {})
    assert response.status_code == 302
    assert not Seat.objects.filter(user=charlie).exists()


def test_a_player_reclaims_a_taken_over_seat(
    client: Client, duel: Game, alice: Any, no_bot_tasks: Any
) -> None:
    with setup_writes("alice's seat taken over"):
        Seat.objects.filter(game=duel, user=alice).update(taken_over=True, timeouts_in_row=3)
    body = login(client, alice).get(duel.get_absolute_url()).content.decode()
    assert "Reclaim my seat" in body
    assert "a bot plays the seat.</p>" in body  # one full stop, not two
    response = client.post(f"{duel.get_absolute_url()}reclaim")
    assert response.status_code == 302
    seat = Seat.objects.get(game=duel, user=alice)
    assert not seat.taken_over and seat.timeouts_in_row == 0


def test_vacation_is_taken_and_ended_from_settings(
    client: Client, duel: Game, alice: Any, bob: Any, no_bot_tasks: Any
) -> None:
    login(client, alice)
    assert "14</strong> of 14 days" in client.get("/settings/").content.decode()
    client.post("/settings/vacation", {"action": "start", "days": "3"})
    alice.refresh_from_db()
    assert alice.vacation_until is not None and alice.vacation_days_used == 3
    assert "on vacation until" in client.get("/settings/").content.decode()
    # Opponents see it on the game page.
    bob_page = login(Client(), bob).get(duel.get_absolute_url()).content.decode()
    assert "alice is on vacation until" in bob_page
    client.post("/settings/vacation", {"action": "end"})
    alice.refresh_from_db()
    assert alice.vacation_until is None and alice.vacation_days_used == 1


def test_vacation_cannot_exceed_the_allowance(client: Client, alice: Any) -> None:
    login(client, alice).post("/settings/vacation", {"action": "start", "days": "15"})
    alice.refresh_from_db()
    assert alice.vacation_until is None


def test_the_nav_counts_unread_notifications_and_the_page_marks_them_read(
    client: Client, alice: Any
) -> None:
    Notification.objects.create(user=alice, kind="reminder", text="Game x: 1h left to roll.")
    login(client, alice)
    assert 'aria-label="1 unread"' in client.get("/lobby/").content.decode()
    assert "1h left to roll" in client.get("/notifications/").content.decode()
    client.post("/notifications/read")
    assert "unread-count" not in client.get("/lobby/").content.decode()


def test_notification_toggles_are_in_settings(client: Client, alice: Any) -> None:
    login(client, alice).post(
        "/settings/",
        {"display_name": "", "time_zone": "UTC", "email_notifications": "on",
         "notify_digest": "on"},
    )  # fmt: skip
    alice.refresh_from_db()
    assert (alice.notify_reminders, alice.notify_in_site, alice.notify_digest) == (
        False, False, True,
    )  # fmt: skip


def test_the_create_form_stores_the_timer_settings(client: Client, alice: Any) -> None:
    login(client, alice).post(
        "/lobby/create",
        {"preset": "us-2003", "max_seats": "2", "turn_seconds": "3600", "visibility": "public",
         "time_bank_seconds": "86400", "time_bank_increment_seconds": "3600",
         "claim_window_seconds": "3600", "bid_window_seconds": "900",
         "trade_expiry_seconds": "21600", "takeover_after": "5"},
    )  # fmt: skip
    game = Game.objects.get()
    assert (game.time_bank_seconds, game.time_bank_increment_seconds) == (86400, 3600)
    assert (game.claim_window_seconds, game.bid_window_seconds) == (3600, 900)
    assert (game.trade_expiry_seconds, game.takeover_after) == (21600, 5)


def test_the_profile_counts_timeouts_and_takeovers(client: Client, duel: Game, alice: Any) -> None:
    with setup_writes("alice's timeouts and take-overs"):
        Seat.objects.filter(game=duel, user=alice).update(timeouts_total=4, takeovers_total=1)
    body = client.get(f"/u/{alice.username}/").content.decode()
    assert "<dt>Timeouts</dt><dd>4</dd>" in body
    assert "<dt>Seats taken over by a bot</dt><dd>1</dd>" in body
