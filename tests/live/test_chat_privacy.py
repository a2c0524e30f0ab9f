""" "Who may chat in my games" (everyone, people I follow, nobody) decides
whose lines a player reads in the games they sit in, and "no chat" hides
every chat: checked through the page, the socket and the API."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.models import User
from games.models import Game
from people import services as people
from people.models import Audience
from tests.games.conftest import _started
from tests.live.conftest import collect, communicator, run
from tests.live.test_chat import chat_frames, chat_url, post
from tests.live.test_chat_blocks import api_chat, api_lines, page, say


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", "carol@example.com", "pw-carol-123")


@pytest.fixture
def trio(alice: User, bob: User, carol: User) -> Game:
    return _started(alice, bob, carol)


def choose(user: User, **fields: object) -> None:
    User.objects.filter(pk=user.pk).update(**fields)
    user.refresh_from_db()


def test_nobody_hides_every_other_players_line(duel: Game, alice: User, bob: User) -> None:
    say(duel, "players", bob, "bob talks")
    say(duel, "players", alice, "alice talks")
    choose(alice, chat_from=Audience.NOBODY)
    mine = page(alice, duel)
    assert "alice talks" in mine and "bob talks" not in mine
    assert api_lines(alice, duel) == {"players": ["alice talks"]}
    # Bob's choice is his own: he reads both.
    assert api_lines(bob, duel) == {"players": ["bob talks", "alice talks"]}


def test_people_i_follow_lets_only_them_through(
    trio: Game, alice: User, bob: User, carol: User
) -> None:
    say(trio, "players", bob, "bob talks")
    say(trio, "players", carol, "carol talks")
    choose(alice, chat_from=Audience.FOLLOWING)
    people.do_follow(alice, bob)
    mine = page(alice, trio)
    assert "bob talks" in mine and "carol talks" not in mine
    assert api_lines(alice, trio) == {"players": ["bob talks"]}


def test_everyone_shows_every_line(trio: Game, alice: User, bob: User, carol: User) -> None:
    say(trio, "players", bob, "bob talks")
    say(trio, "players", carol, "carol talks")
    assert api_lines(alice, trio) == {"players": ["bob talks", "carol talks"]}


def test_the_choice_holds_only_in_games_the_reader_sits_in(
    duel: Game, charlie: User, alice: User
) -> None:
    say(duel, "spectators", alice, "not a spectator")  # set up by hand
    choose(charlie, chat_from=Audience.NOBODY)
    assert api_lines(charlie, duel) == {"spectators": ["not a spectator"]}
    assert "not a spectator" in page(charlie, duel)


def test_a_finished_games_spectators_are_filtered_for_the_players_too(
    duel: Game, alice: User, charlie: User
) -> None:
    from tests.live.test_chat_blocks import finish

    say(duel, "spectators", charlie, "charlie watching")
    finish(duel)
    choose(alice, chat_from=Audience.NOBODY)
    assert api_lines(alice, duel) == {"players": [], "spectators": []}


def test_no_chat_shows_no_chat_pane_and_no_form(duel: Game, alice: User, bob: User) -> None:
    say(duel, "players", bob, "bob talks")
    choose(alice, no_chat=True)
    mine = page(alice, duel)
    assert "bob talks" not in mine
    assert "Players&#x27; chat" not in mine and "Players' chat" not in mine
    assert chat_url(duel, "players") not in mine  # no form to post with
    assert api_chat(alice, duel) == {"chat_off": True, "rooms": []}
    assert api_chat(bob, duel)["chat_off"] is False


def test_no_chat_refuses_a_post_with_a_message(duel: Game, alice: User) -> None:
    from live.models import ChatMessage

    choose(alice, no_chat=True)
    response = post(alice, duel, "players", "hello")
    assert response.status_code == 403
    assert "turned chat off" in response.content.decode()
    client = Client()
    client.force_login(alice)
    plain = client.post(chat_url(duel, "players"), {"body": "hello"}, follow=True)
    assert "turned chat off" in plain.content.decode()
    assert not ChatMessage.objects.exists()


# --- the socket ---------------------------------------------------------------------------


@pytest.mark.usefixtures("live_db")
def test_a_push_from_someone_the_choice_keeps_out_does_not_arrive(
    trio: Game, alice: User, bob: User, carol: User
) -> None:
    choose(alice, chat_from=Audience.FOLLOWING)
    people.do_follow(alice, bob)

    async def scenario() -> None:
        reader = communicator(f"/ws/games/{trio.public_id}/", alice)
        try:
            assert (await reader.connect())[0]
            await collect(reader)
            await database_sync_to_async(post)(carol, trio, "players", "carol talks")
            await database_sync_to_async(post)(bob, trio, "players", "bob talks")
            frames = chat_frames(await collect(reader))
            assert any("bob talks" in f for f in frames)  # after carol's
            assert not any("carol talks" in f for f in frames)
        finally:
            await reader.disconnect()

    run(scenario)


@pytest.mark.usefixtures("live_db")
def test_nobody_keeps_every_other_push_out(duel: Game, alice: User, bob: User) -> None:
    choose(alice, chat_from=Audience.NOBODY)

    async def scenario() -> None:
        reader = communicator(f"/ws/games/{duel.public_id}/", alice)
        try:
            assert (await reader.connect())[0]
            await collect(reader)
            await database_sync_to_async(post)(bob, duel, "players", "bob talks")
            await database_sync_to_async(post)(alice, duel, "players", "alice talks")
            frames = chat_frames(await collect(reader))
            assert any("alice talks" in f for f in frames)
            assert not any("bob talks" in f for f in frames)
        finally:
            await reader.disconnect()

    run(scenario)


@pytest.mark.usefixtures("live_db")
def test_no_chat_gets_no_chat_over_the_socket(duel: Game, alice: User, bob: User) -> None:
    choose(alice, no_chat=True)

    async def scenario() -> None:
        reader = communicator(f"/ws/games/{duel.public_id}/", alice)
        other = communicator(f"/ws/games/{duel.public_id}/", bob)
        try:
            for comm in (reader, other):
                assert (await comm.connect())[0]
            [snapshot] = [m for m in await collect(reader) if m.startswith("<!--snapshot")]
            assert '<section id="chat"' in snapshot and "chat-form" not in snapshot
            await collect(other)
            await database_sync_to_async(post)(bob, duel, "players", "bob talks")
            assert any("bob talks" in f for f in chat_frames(await collect(other)))
            # A snapshot asked for afterwards arrives; the line never did.
            await reader.send_to(text_data=json.dumps({"type": "resync"}))
            frames = await collect(reader)
            assert any(f.startswith("<!--snapshot") for f in frames)
            assert not any("bob talks" in f for f in frames)
        finally:
            for comm in (reader, other):
                await comm.disconnect()

    run(scenario)
