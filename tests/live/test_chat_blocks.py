"""A person's chat lines never reach someone who blocked or muted them: not
through the game page, its pushes, a finished game's chat (what the replay
of a game shows of its chat), nor the API; in the players' room and the
spectators'. Their own lines they always see."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.models import User
from api import tokens
from games.models import Game
from live import chat, groups
from live.chatview import EVERYONE
from live.models import ChatMessage
from people import services as people
from tests.conftest import setup_writes
from tests.live.conftest import collect, communicator, run
from tests.live.test_chat import chat_frames, post


@pytest.fixture
def dave(db: None) -> User:
    """A second spectator."""
    return User.objects.create_user("dave", "dave@example.com", "pw-dave-123")


def page(user: User, game: Game) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def api_chat(user: User, game: Game) -> dict[str, Any]:
    _, token = tokens.issue(user, scopes=["read"])
    response = Client().get(
        f"/api/v1/games/{game.public_id}/chat", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def api_lines(user: User, game: Game) -> dict[str, list[str]]:
    return {
        room["name"]: [line["body"] for line in room["lines"]]
        for room in api_chat(user, game)["rooms"]
    }


def say(game: Game, room: str, author: User, body: str) -> ChatMessage:
    return ChatMessage.objects.create(game=game, room=room, author=author, body=body)


def finish(game: Game) -> None:
    with setup_writes("the game over"):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()


# --- the page and the API ---------------------------------------------------------------


def test_the_page_hides_the_players_lines_of_someone_the_reader_blocked(
    duel: Game, alice: User, bob: User
) -> None:
    say(duel, "players", bob, "bob was here")
    say(duel, "players", alice, "alice was here")
    people.do_block(alice, bob)
    mine = page(alice, duel)
    assert "alice was here" in mine
    assert "bob was here" not in mine
    theirs = page(bob, duel)  # the blocked person sees nothing change
    assert "bob was here" in theirs and "alice was here" in theirs


def test_the_page_hides_the_spectators_lines_of_someone_the_reader_muted(
    duel: Game, charlie: User, dave: User
) -> None:
    say(duel, "spectators", dave, "dave watches")
    say(duel, "spectators", charlie, "charlie watches")
    people.do_mute(charlie, dave)
    mine = page(charlie, duel)
    assert "charlie watches" in mine
    assert "dave watches" not in mine
    assert "dave watches" in page(dave, duel)


def test_unblocking_shows_the_lines_again(duel: Game, alice: User, bob: User) -> None:
    say(duel, "players", bob, "bob was here")
    people.do_block(alice, bob)
    assert "bob was here" not in page(alice, duel)
    people.do_unblock(alice, bob)
    assert "bob was here" in page(alice, duel)


def test_a_finished_games_chat_hides_the_blocked_in_both_rooms(
    duel: Game, alice: User, bob: User, charlie: User
) -> None:
    say(duel, "players", bob, "bob in play")
    say(duel, "spectators", charlie, "charlie watching")
    say(duel, "spectators", bob, "bob after the end")
    finish(duel)
    people.do_block(alice, charlie)
    people.do_mute(alice, bob)
    mine = page(alice, duel)
    assert "Spectators" in mine  # both rooms are shown at the end
    for line in ("bob in play", "charlie watching", "bob after the end"):
        assert line not in mine
    assert api_lines(alice, duel) == {"players": [], "spectators": []}
    theirs = api_lines(bob, duel)
    assert theirs == {
        "players": ["bob in play"],
        "spectators": ["charlie watching", "bob after the end"],
    }


def test_the_replay_page_shows_no_chat(duel: Game, alice: User, bob: User) -> None:
    say(duel, "players", bob, "bob was here")
    finish(duel)
    people.do_block(alice, bob)
    client = Client()
    client.force_login(alice)
    replay = client.get(f"{duel.get_absolute_url()}replay/")
    assert replay.status_code == 200
    assert "bob was here" not in replay.content.decode()


def test_the_api_hides_the_lines_of_the_blocked_and_the_muted(
    duel: Game, alice: User, bob: User, charlie: User, dave: User
) -> None:
    say(duel, "players", bob, "bob was here")
    say(duel, "players", alice, "alice was here")
    say(duel, "spectators", dave, "dave watches")
    say(duel, "spectators", charlie, "charlie watches")
    people.do_block(alice, bob)
    people.do_mute(charlie, dave)
    assert api_lines(alice, duel) == {"players": ["alice was here"]}
    assert api_lines(bob, duel) == {"players": ["bob was here", "alice was here"]}
    assert api_lines(charlie, duel) == {"spectators": ["charlie watches"]}
    assert api_lines(dave, duel) == {"spectators": ["dave watches", "charlie watches"]}


def test_the_history_keeps_its_length_after_hiding(duel: Game, alice: User, bob: User) -> None:
    """The hidden lines are left out before the last ``HISTORY`` are taken."""
    for i in range(chat.HISTORY):
        say(duel, "players", alice, f"alice {i}")
    for i in range(5):
        say(duel, "players", bob, f"bob {i}")
    people.do_block(alice, bob)
    assert len(api_lines(alice, duel)["players"]) == chat.HISTORY


def test_each_line_offers_mute_block_and_report_to_others_only(
    duel: Game, alice: User, bob: User
) -> None:
    mine = say(duel, "players", alice, "alice was here")
    theirs = say(duel, "players", bob, "bob was here")
    html = page(alice, duel)
    assert 'action="/u/bob/block"' in html
    assert 'action="/u/bob/mute"' in html
    assert 'action="/u/bob/report"' in html
    assert f'name="ref" value="{theirs.pk}"' in html
    assert f'name="ref" value="{mine.pk}"' not in html  # not on one's own line
    assert 'action="/u/alice/block"' not in html
    anonymous = Client().get(duel.get_absolute_url()).content.decode()
    assert "/report" not in anonymous


# --- the pushes ---------------------------------------------------------------------------


@pytest.mark.usefixtures("live_db")
def test_a_pushed_players_line_never_reaches_who_blocked_its_author(
    duel: Game, alice: User, bob: User
) -> None:
    people.do_block(alice, bob)

    async def scenario() -> None:
        reader = communicator(f"/ws/games/{duel.public_id}/", alice)
        author = communicator(f"/ws/games/{duel.public_id}/", bob)
        try:
            for comm in (reader, author):
                assert (await comm.connect())[0]
                await collect(comm)
            await database_sync_to_async(post)(bob, duel, "players", "from the blocked")
            [seen] = chat_frames(await collect(author))  # the author has it
            assert "from the blocked" in seen
            assert "/u/bob/block" not in seen  # no controls on one's own line
            await database_sync_to_async(post)(alice, duel, "players", "from the reader")
            frames = chat_frames(await collect(reader))
            # Her own line, pushed after his, has arrived; his never did.
            assert any("from the reader" in f for f in frames)
            assert not any("from the blocked" in f for f in frames)
            [to_author] = chat_frames(await collect(author))
            assert "from the reader" in to_author
            assert 'action="/u/alice/block"' in to_author  # others' lines have them
        finally:
            for comm in (reader, author):
                await comm.disconnect()

    run(scenario)


@pytest.mark.usefixtures("live_db")
def test_a_pushed_spectators_line_never_reaches_who_muted_its_author(
    duel: Game, charlie: User, dave: User
) -> None:
    people.do_mute(charlie, dave)

    async def scenario() -> None:
        reader = communicator(f"/ws/games/{duel.public_id}/", charlie)
        author = communicator(f"/ws/games/{duel.public_id}/", dave)
        try:
            for comm in (reader, author):
                assert (await comm.connect())[0]
                await collect(comm)
            await database_sync_to_async(post)(dave, duel, "spectators", "from the muted")
            assert any("from the muted" in f for f in chat_frames(await collect(author)))
            await database_sync_to_async(post)(charlie, duel, "spectators", "from the reader")
            frames = chat_frames(await collect(reader))
            assert any("from the reader" in f for f in frames)
            assert not any("from the muted" in f for f in frames)
        finally:
            for comm in (reader, author):
                await comm.disconnect()

    run(scenario)


@pytest.mark.usefixtures("live_db")
def test_blocking_on_an_open_page_takes_the_lines_away_at_once(
    duel: Game, alice: User, bob: User
) -> None:
    async def scenario() -> None:
        reader = communicator(f"/ws/games/{duel.public_id}/", alice)
        author = communicator(f"/ws/games/{duel.public_id}/", bob)
        try:
            for comm in (reader, author):
                assert (await comm.connect())[0]
                await collect(comm)
            await database_sync_to_async(post)(bob, duel, "players", "before the block")
            assert any("before the block" in f for f in chat_frames(await collect(reader)))
            await database_sync_to_async(people.do_block)(alice, bob)
            # The open page gets its chat pane again, without his lines.
            [pane] = [f for f in chat_frames(await collect(reader)) if 'id="chat"' in f]
            assert "Players" in pane
            assert "before the block" not in pane
            await database_sync_to_async(post)(bob, duel, "players", "after the block")
            await database_sync_to_async(post)(alice, duel, "players", "from the reader")
            frames = chat_frames(await collect(reader))
            assert any("from the reader" in f for f in frames)
            assert not any("after the block" in f for f in frames)
            await database_sync_to_async(people.do_unblock)(alice, bob)
            [pane] = [f for f in chat_frames(await collect(reader)) if 'id="chat"' in f]
            assert "before the block" in pane and "after the block" in pane
        finally:
            for comm in (reader, author):
                await comm.disconnect()

    run(scenario)


@pytest.mark.slow  # sockets on a live database: in make test-long, to keep make test under seven minutes
@pytest.mark.usefixtures("live_db")
def test_the_spectators_room_unveiled_at_the_end_leaves_out_the_blocked(
    duel: Game, alice: User, bob: User, charlie: User
) -> None:
    say(duel, "spectators", charlie, "charlie watching")
    people.do_block(alice, charlie)

    async def scenario() -> None:
        player = communicator(f"/ws/games/{duel.public_id}/", alice)
        other = communicator(f"/ws/games/{duel.public_id}/", bob)
        try:
            for comm in (player, other):
                assert (await comm.connect())[0]
                await collect(comm)
            await database_sync_to_async(finish)(duel)
            # As the broadcast sends it at the end (``broadcast._chat_unveiled``).
            unveiled = await database_sync_to_async(_unveiled)(duel)
            await database_sync_to_async(groups.send)(unveiled)
            [mine] = [f for f in chat_frames(await collect(player)) if 'id="chat"' in f]
            assert "Spectators" in mine
            assert "charlie watching" not in mine
            [theirs] = [f for f in chat_frames(await collect(other)) if 'id="chat"' in f]
            assert "charlie watching" in theirs
        finally:
            for comm in (player, other):
                await comm.disconnect()

    run(scenario)


def _unveiled(game: Game) -> list[tuple[str, dict[str, Any]]]:
    from live import broadcast

    found = broadcast._chat_unveiled(game)
    [(_, message)] = found
    assert message["chat_pane"] is True
    return found


def test_the_pane_rendered_once_for_every_player_holds_every_line(
    duel: Game, alice: User, charlie: User
) -> None:
    say(duel, "spectators", charlie, "charlie watching")
    finish(duel)
    people.do_block(alice, charlie)
    seat = duel.seats.get(user=alice)
    context = chat.chat_context(duel, seat, alice, view=EVERYONE)
    assert [m.body for room in context["rooms"] for m in room["messages"]] == ["charlie watching"]
    assert "charlie watching" not in chat.pane_html(duel.pk, seat.number, alice)


def save_privacy(user: User, **choices: str) -> None:
    client = Client()
    client.force_login(user)
    fields = {"challenge_from": "everyone", "message_from": "everyone", "chat_from": "everyone"}
    response = client.post("/settings/privacy", {**fields, **choices})
    assert response.status_code == 302, response.content


@pytest.mark.usefixtures("live_db")
def test_turning_no_chat_on_takes_the_chat_off_an_open_page_at_once(
    duel: Game, alice: User, bob: User
) -> None:
    async def scenario() -> None:
        reader = communicator(f"/ws/games/{duel.public_id}/", alice)
        try:
            assert (await reader.connect())[0]
            await collect(reader)
            await database_sync_to_async(post)(bob, duel, "players", "before no chat")
            assert any("before no chat" in f for f in chat_frames(await collect(reader)))
            await database_sync_to_async(save_privacy)(alice, no_chat="on")
            [pane] = [f for f in chat_frames(await collect(reader)) if 'id="chat"' in f]
            assert "before no chat" not in pane
            await database_sync_to_async(save_privacy)(alice)
            [pane] = [f for f in chat_frames(await collect(reader)) if 'id="chat"' in f]
            assert "before no chat" in pane
        finally:
            await reader.disconnect()

    run(scenario)
