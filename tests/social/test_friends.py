from __future__ import annotations

from collections.abc import Iterator
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import services as games
from games.models import Game, Seat
from live import presence
from people import services
from tests.conftest import setup_writes
from tests.social.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_bot_moves() -> Iterator[None]:
    with mock.patch("games.scheduling.schedule_bots"):
        yield


def _finished(user: User, rank: int, *, public: bool = True) -> Game:
    with setup_writes("a finished game"):
        game = Game.objects.create(
            status=Game.Status.FINISHED, is_public=public, finished_at=timezone.now()
        )
        Seat.objects.create(game=game, number=0, user=user, final_rank=rank)
    return game


def test_friends_page_needs_a_sign_in(client: Client) -> None:
    response = client.get("/friends/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_shows_who_you_follow_online_their_live_public_games_and_results(
    client: Client, alice: User, bob: User, carol: User
) -> None:
    services.do_follow(alice, bob)
    services.do_follow(alice, carol)
    services.do_follow(carol, alice)  # carol is a friend
    presence.person_connected(bob.pk)
    live = games.create_seated_game(humans=[bob], bots=["heuristic"], start=True)
    hidden = games.create_seated_game(
        humans=[carol], bots=["heuristic"], start=True, is_public=False
    )
    won = _finished(carol, 1)
    secret = _finished(bob, 2, public=False)
    try:
        client.force_login(alice)
        body = client.get("/friends/").content.decode()
    finally:
        presence.person_disconnected(bob.pk)
    online = body.split('id="friends-online-heading"')[1].split("</section>")[0]
    assert ">bob<" in online and ">carol<" not in online
    assert f"/games/{live.public_id}/" in body
    assert f"/games/{hidden.public_id}/" not in body  # a private game stays private
    assert f"/games/{won.public_id}/" in body and "carol won" in body
    assert f"/games/{secret.public_id}/" not in body
    following = body.split('id="following-heading"')[1]
    carol_row = following.split(">carol<")[1].split("</li>")[0]
    assert "friend-badge" in carol_row
    bob_row = following.split(">bob<")[1].split("</li>")[0]
    assert "friend-badge" not in bob_row
    assert 'action="/u/bob/unfollow"' in body and 'action="/u/bob/bell"' in body


def test_friends_are_listed_first(client: Client, alice: User) -> None:
    for name in ("aaron", "zed"):
        services.do_follow(alice, make_user(name))
    zed = User.objects.get(username="zed")
    services.do_follow(zed, alice)
    client.force_login(alice)
    following = client.get("/friends/").content.decode().split('id="following-heading"')[1]
    assert following.index("/u/zed/") < following.index("/u/aaron/")


def test_the_page_costs_the_same_queries_for_one_or_many_people(
    client: Client, alice: User
) -> None:
    client.force_login(alice)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/friends/").status_code == 200
        return len(queries)

    first = make_user("first")
    services.do_follow(alice, first)
    games.create_seated_game(humans=[first], bots=["heuristic"], start=True)
    _finished(first, 1)
    one = count()
    for i in range(6):
        other = make_user(f"other{i}")
        services.do_follow(alice, other)
        services.do_follow(other, alice)
        games.create_seated_game(humans=[other], bots=["heuristic"], start=True)
        _finished(other, 2)
    assert count() == one


def test_lobby_loads_the_friends_panel_for_signed_in_people(
    client: Client, alice: User, bob: User
) -> None:
    services.do_follow(alice, bob)
    presence.person_connected(bob.pk)
    try:
        client.force_login(alice)
        assert 'hx-get="/friends/panel"' in client.get("/lobby/").content.decode()
        panel = client.get("/friends/panel", HTTP_HX_REQUEST="true").content.decode()
    finally:
        presence.person_disconnected(bob.pk)
    assert 'id="friends-panel"' in panel and ">bob<" in panel


def test_friends_panel_is_empty_for_anonymous_visitors(client: Client) -> None:
    response = client.get("/friends/panel")
    assert response.status_code == 200 and response.content == b""
