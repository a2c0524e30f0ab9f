"""Game chat: players' room, the spectators' room hidden from players until
the end, escaping, length and rate limits."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.models import User
from common.env import env_rates
from games.models import Game
from live.chat import readable_rooms
from live.models import MAX_LENGTH, ChatMessage
from tests.live.conftest import collect, communicator, run

HTMX = {"HTTP_HX_REQUEST": "true"}


def chat_url(game: Game, room: str) -> str:
    return f"{game.get_absolute_url()}chat/{room}"


def post(
    user: User, game: Game, room: str, body: str, *, ip: str = "127.0.0.1", htmx: bool = True
) -> Any:
    client = Client(REMOTE_ADDR=ip)
    client.force_login(user)
    return client.post(chat_url(game, room), {"body": body}, **(HTMX if htmx else {}))


def test_a_player_posts_to_the_players_room(duel: Game, alice: User) -> None:
    response = post(alice, duel, "players", "  good   luck ")
    assert response.status_code == 200
    message = ChatMessage.objects.get()
    assert (message.room, message.author, message.body) == ("players", alice, "good luck")


def test_it_refuses_an_empty_or_overlong_message(duel: Game, alice: User) -> None:
    assert post(alice, duel, "players", "   ").status_code == 422
    response = post(alice, duel, "players", "x" * (MAX_LENGTH + 1))
    assert response.status_code == 422
    assert f"under {MAX_LENGTH}" in response.content.decode()
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        "\u200b\u200b\u200b",  # zero-width spaces
        "\u200d\u2060\ufeff",  # joiner, word joiner, BOM
        "\u202e \u2066",  # bidi controls and a space
        "\u3164\u2800",  # Hangul filler, Braille blank
        "\u0301\u0301",  # accents on nothing
    ],
)
def test_it_refuses_a_message_with_no_visible_character_as_empty(
    duel: Game, alice: User, body: str
) -> None:
    response = post(alice, duel, "players", body)
    assert response.status_code == 422
    assert "no visible character" in response.content.decode()
    plain = post(alice, duel, "players", body, htmx=False)
    assert plain.status_code == 302
    assert not ChatMessage.objects.exists()


def test_a_visible_message_keeps_its_joiners(duel: Game, alice: User) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji, joined
    assert post(alice, duel, "players", f"gg {family}").status_code == 200
    assert ChatMessage.objects.get().body == f"gg {family}"


def test_it_rate_limits_each_person(settings: Any, duel: Game, alice: User, bob: User) -> None:
    per_user = settings.RATE_LIMITS["chat"][0]
    assert per_user.per == "user"
    for i in range(per_user.count):
        assert post(alice, duel, "players", f"message {i}").status_code == 200
    response = post(alice, duel, "players", "one too many")
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= per_user.seconds
    assert "too quickly" in response.content.decode()
    assert ChatMessage.objects.count() == per_user.count
    assert post(bob, duel, "players", "my own allowance").status_code == 200


def test_the_address_limit_counts_every_account_behind_it(
    settings: Any, duel: Game, alice: User, bob: User
) -> None:
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "chat": env_rates("TEST", "10/10s/user,3/10s/ip", {"user", "ip"}, environ={}),
    }
    for user in (alice, bob, alice):
        assert post(user, duel, "players", "hi").status_code == 200
    assert post(bob, duel, "players", "and again").status_code == 429
    assert ChatMessage.objects.count() == 3
    assert post(bob, duel, "players", "from home", ip="10.0.0.2").status_code == 200


def test_a_plain_post_over_the_limit_gets_a_page(settings: Any, duel: Game, alice: User) -> None:
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "chat": env_rates("TEST", "1/10s/user", {"user", "ip"}, environ={}),
    }
    assert post(alice, duel, "players", "hi", htmx=False).status_code == 302
    response = post(alice, duel, "players", "hi again", htmx=False)
    assert response.status_code == 429
    assert "Retry-After" in response
    assert "sending messages too quickly" in response.content.decode()
    assert ChatMessage.objects.count() == 1


def test_it_refuses_nul_characters_with_a_message(duel: Game, alice: User) -> None:
    # At the door, before the view (monopoly_site/badinput.py).
    response = post(alice, duel, "players", "a\x00b")
    assert response.status_code == 400
    assert "control character (U+0000)" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_a_plain_post_of_an_overlong_message_is_refused_not_cut(duel: Game, alice: User) -> None:
    client = Client()
    client.force_login(alice)
    url = chat_url(duel, "players")
    response = client.post(url, {"body": "x" * (MAX_LENGTH + 1)}, follow=True)
    assert f"under {MAX_LENGTH}" in response.content.decode()
    assert not ChatMessage.objects.exists()
    assert post(alice, duel, "players", "x" * MAX_LENGTH).status_code == 200
    assert ChatMessage.objects.get().body == "x" * MAX_LENGTH


def test_a_spectator_cannot_write_in_the_players_room(duel: Game, charlie: User) -> None:
    assert post(charlie, duel, "players", "psst").status_code == 403
    assert post(charlie, duel, "spectators", "nice game").status_code == 200


def test_a_player_cannot_write_in_the_spectators_room(duel: Game, alice: User) -> None:
    assert post(alice, duel, "spectators", "hello").status_code == 403
    assert not ChatMessage.objects.exists()


def test_it_requires_login(duel: Game) -> None:
    response = Client().post(chat_url(duel, "spectators"), {"body": "hi"})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_it_rejects_get(duel: Game, alice: User) -> None:
    client = Client()
    client.force_login(alice)
    assert client.get(chat_url(duel, "players")).status_code == 405


def test_outsiders_cannot_find_a_private_games_chat(private_duel: Game, charlie: User) -> None:
    assert post(charlie, private_duel, "spectators", "hi").status_code == 404


def test_players_read_the_spectators_room_only_after_the_end(duel: Game) -> None:
    seat = duel.seats.get(number=0)
    assert readable_rooms(duel, seat) == ["players"]
    assert readable_rooms(duel, None) == ["spectators"]
    duel.status = Game.Status.FINISHED
    assert readable_rooms(duel, seat) == ["players", "spectators"]


def test_the_page_shows_the_rooms_the_viewer_may_read(
    duel: Game, alice: User, charlie: User
) -> None:
    ChatMessage.objects.create(game=duel, room="spectators", author=charlie, body="<b>psst</b>")
    client = Client()
    client.force_login(alice)
    page = client.get(duel.get_absolute_url()).content.decode()
    assert "Players&#x27; chat" in page or "Players' chat" in page
    assert "psst" not in page
    client.force_login(charlie)
    page = client.get(duel.get_absolute_url()).content.decode()
    assert "&lt;b&gt;psst&lt;/b&gt;" in page
    assert "<b>psst</b>" not in page


def chat_frames(messages: list[str]) -> list[str]:
    return [m for m in messages if 'id="presence"' not in m]


@pytest.mark.usefixtures("live_db")
def test_messages_reach_only_their_room_and_are_escaped(
    duel: Game, alice: User, charlie: User
) -> None:
    async def scenario() -> None:
        player = communicator(f"/ws/games/{duel.public_id}/", alice)
        spectator = communicator(f"/ws/games/{duel.public_id}/", charlie)
        for comm in (player, spectator):
            assert (await comm.connect())[0]
        for comm in (player, spectator):
            await collect(comm)
        await database_sync_to_async(post)(alice, duel, "players", "<script>x()</script>gl")
        # Presence announcements may come at any moment (at most one a
        # second): only the chat frames count here.
        [to_player] = chat_frames(await collect(player))
        assert 'id="chat-players-log" hx-swap-oob="beforeend"' in to_player
        assert "&lt;script&gt;x()&lt;/script&gt;gl" in to_player
        assert "<script>" not in to_player
        assert not chat_frames(await collect(spectator))
        await database_sync_to_async(post)(charlie, duel, "spectators", "who wins?")
        [to_spectator] = chat_frames(await collect(spectator))
        assert "who wins?" in to_spectator
        assert not chat_frames(await collect(player))
        for comm in (player, spectator):
            await comm.disconnect()

    run(scenario)
