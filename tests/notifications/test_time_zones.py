"""Times on the viewer's own clock: the zone chosen in settings, else the
browser's (a cookie site.js sets), remembered for emails and the digest."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client

from games.models import Game
from notifications import decisions
from notifications.models import Notification

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=ZoneInfo("UTC"))  # a Friday


def notice_due_at_17_utc(user: Any) -> Notification:
    return Notification.objects.create(
        user=user,
        kind="reminder",
        text="Game x: 5 h left to roll.",
        due_at=NOW + timedelta(hours=5),
    )


@time_machine.travel(NOW, tick=False)
def test_notices_show_deadlines_in_the_zone_the_player_chose(client: Client, alice: Any) -> None:
    alice.time_zone = "Asia/Tokyo"  # UTC+9: 17:00 UTC is 02:00 on Saturday
    alice.save()
    notice_due_at_17_utc(alice)
    client.force_login(alice)
    page = client.get("/notifications/").content.decode()
    assert "by <time" in page and "Sat 28 Nov, 02:00 GMT+9" in page and "(in 5\xa0hours)" in page


@time_machine.travel(NOW, tick=False)
def test_without_a_chosen_zone_the_browsers_is_used_and_remembered(
    client: Client, alice: Any
) -> None:
    alice.time_zone = ""
    alice.save()
    notice_due_at_17_utc(alice)
    client.force_login(alice)
    client.cookies["tz"] = "America/New_York"  # UTC-5: 12:00 on Friday
    assert "Fri 27 Nov, 12:00 GMT-5" in client.get("/notifications/").content.decode()
    alice.refresh_from_db()
    assert alice.browser_time_zone == "America/New_York"
    # The email of a later decision uses it too.
    assert "Fri 27 Nov 12:00 (EST)" in decisions._by(alice, NOW + timedelta(hours=5))


@time_machine.travel(NOW, tick=False)
def test_a_forged_zone_cookie_is_ignored(client: Client, alice: Any) -> None:
    alice.time_zone = ""
    alice.save()
    notice_due_at_17_utc(alice)
    client.force_login(alice)
    client.cookies["tz"] = "Mars/Olympus"
    assert "Fri 27 Nov, 17:00 UTC" in client.get("/notifications/").content.decode()
    alice.refresh_from_db()
    assert alice.browser_time_zone == ""


def test_turn_notice_text_carries_no_utc_timestamp(duel: Game, no_bot_tasks: Any) -> None:
    decisions.your_turn(duel.pk)
    (note,) = Notification.objects.filter(kind="your_turn")
    assert "UTC" not in note.text and note.due_at is not None
