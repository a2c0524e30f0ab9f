""" "Tell me when they start a game": a real start through the services."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from accounts.models import User
from games import services as games
from games.models import Game
from live import presence
from notifications.models import Notification
from people import services
from tests.social.conftest import make_user

pytestmark = pytest.mark.django_db

KIND = "followed_started"


@pytest.fixture(autouse=True)
def _no_bot_moves() -> Iterator[None]:
    with mock.patch("games.scheduling.schedule_bots"):
        yield


def _start(host: User, other: User, capture: Any, *, public: bool = True) -> Game:
    with capture(execute=True):
        game = games.create_game(host=host, max_seats=2, is_public=public, bot_delay_ms=0)
        games.join_game(public_id=game.public_id, user=other, invite_token=game.invite_token)
        games.start_game(public_id=game.public_id, user=host)
    return game


def test_followers_with_the_bell_hear_that_a_game_started(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    dave, erin = make_user("dave"), make_user("erin")
    services.do_set_bell(carol, alice, on=True)  # told
    services.do_follow(dave, alice)  # follows, bell off: not told
    services.do_set_bell(bob, alice, on=True)  # seated in the game: not told
    services.do_set_bell(erin, alice, on=True)
    services.do_block(alice, erin)  # blocked by alice: not told
    game = _start(alice, bob, django_capture_on_commit_callbacks)
    told = Notification.objects.filter(kind=KIND)
    assert list(told.values_list("user__username", flat=True)) == ["carol"]
    note = told.get()
    assert note.url == f"/games/{game.public_id}/"
    assert "alice" in note.text and "started a game" in note.text and game.public_id in note.text


def test_the_bell_of_each_seated_person_rings(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    services.do_set_bell(carol, alice, on=True)
    services.do_set_bell(carol, bob, on=True)
    _start(alice, bob, django_capture_on_commit_callbacks)
    texts = sorted(
        Notification.objects.filter(user=carol, kind=KIND).values_list("text", flat=True)
    )
    assert len(texts) == 2 and texts[0].startswith("alice") and texts[1].startswith("bob")


def test_a_private_game_is_never_announced(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    services.do_set_bell(carol, alice, on=True)
    _start(alice, bob, django_capture_on_commit_callbacks, public=False)
    assert not Notification.objects.filter(kind=KIND).exists()


def test_one_notice_a_day_per_person_followed_leading_to_the_latest_game(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    services.do_set_bell(carol, alice, on=True)
    _start(alice, bob, django_capture_on_commit_callbacks)
    second = _start(alice, bob, django_capture_on_commit_callbacks)
    note = Notification.objects.get(user=carol, kind=KIND)
    assert note.url == f"/games/{second.public_id}/"
    assert "another game today" in note.text
    tomorrow = timezone.now() + timedelta(days=1)
    with mock.patch("social.bell.timezone.now", return_value=tomorrow):
        _start(alice, bob, django_capture_on_commit_callbacks)
    assert Notification.objects.filter(user=carol, kind=KIND).count() == 2


def test_turning_the_bell_off_stops_the_notices(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    services.do_set_bell(carol, alice, on=True)
    services.do_set_bell(carol, alice, on=False)
    _start(alice, bob, django_capture_on_commit_callbacks)
    assert not Notification.objects.filter(kind=KIND).exists()


def test_web_push_goes_only_to_followers_away_from_the_site(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    dave = make_user("dave")
    services.do_set_bell(carol, alice, on=True)
    services.do_set_bell(dave, alice, on=True)
    presence.person_connected(dave.pk)  # dave has a page open: the unread count tells him
    try:
        with (
            mock.patch("social.bell.push.enabled", return_value=True),
            mock.patch("social.tasks.push_bell.delay") as delay,
        ):
            _start(alice, bob, django_capture_on_commit_callbacks)
    finally:
        presence.person_disconnected(dave.pk)
    assert [call.args[0] for call in delay.call_args_list] == [carol.pk]
    _user, title, _body, url = delay.call_args.args
    assert title == "alice started a game" and url.startswith("/games/")
    assert Notification.objects.filter(kind=KIND).count() == 2


def test_the_push_task_sends_to_the_followers_devices(carol: User) -> None:
    from social.tasks import push_bell

    with mock.patch("social.tasks.push.send", return_value=1) as send:
        assert push_bell(carol.pk, "t", "b", "/games/x/") == 1
    send.assert_called_once_with(carol.pk, "t", "b", "/games/x/")


def test_the_day_of_the_bell_is_the_followers_own() -> None:
    from datetime import UTC, datetime

    from social.bell import follower_day

    late = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)
    tokyo = User(username="t", time_zone="Asia/Tokyo")
    browser = User(username="b", browser_time_zone="America/Los_Angeles")
    nowhere = User(username="n", time_zone="Nowhere/Else")
    assert follower_day(tokyo, late) == "2026-11-30"
    assert follower_day(browser, late) == "2026-11-29"
    assert follower_day(browser, datetime(2026, 11, 30, 7, 59, tzinfo=UTC)) == "2026-11-29"
    assert follower_day(nowhere, late) == "2026-11-29"
