"""``GET /api/v1/stream/events`` on a real Daphne: the games waiting on you
first, then "your move", game starts and notices as they happen."""

from __future__ import annotations

from accounts.models import User
from games import engine, services
from games.models import Game
from notifications.services import notify
from tests.api.conftest import api_for
from tests.api.streams import Stream, site, stream_server
from tests.games.conftest import duel
from tests.live.conftest import move

__all__ = ["duel", "site", "stream_server"]


def test_the_events_stream_announces_your_move_first_and_as_it_comes(
    site: str, duel: Game, alice: User, bob: User
) -> None:
    url = f"{site}/api/v1/stream/events"
    mover = engine.from_dict(duel.state).turn
    users = {seat.number: seat.user for seat in duel.seats.select_related("user")}
    waiting = Stream(url, api_for(users[mover], "read").token)
    other = Stream(url, api_for(users[1 - mover], "read").token)
    first = waiting.until(lambda line: line["type"] == "your_move")
    assert first["game"] == duel.public_id and first["version"] == 1
    assert first["deadline"] is not None and first["decisions"][0]["player"] == mover
    # The other's turn comes after the mover's: announced then, with its version.
    while engine.from_dict(duel.state).turn == mover:
        move(duel)
    theirs = other.until(lambda line: line["type"] == "your_move")
    assert theirs["game"] == duel.public_id
    assert theirs["version"] == duel.version
    # Nothing before it but keep-alives.
    assert [line["type"] for line in other.seen if line["type"] != "ping"] == ["your_move"]


def test_the_events_stream_announces_a_game_start_and_notices(
    site: str, alice: User, bob: User
) -> None:
    game = services.create_game(host=alice, max_seats=2)
    services.join_game(public_id=game.public_id, user=bob, invite_token=game.invite_token)
    stream = Stream(f"{site}/api/v1/stream/events", api_for(bob, "read").token)
    stream.until(lambda line: line["type"] == "ping")  # open, and nothing waits on bob
    services.start_game(public_id=game.public_id, user=alice)
    started = stream.until(lambda line: line["type"] == "game_start")
    assert started == {"type": "game_start", "game": game.public_id, "version": 1}
    notify(bob.pk, game.pk, "timeout", "Your turn timed out; the server moved for you.")
    notice = stream.until(lambda line: line["type"] == "notice")
    assert notice["kind"] == "timeout" and notice["game"] == game.public_id
    assert "timed out" in notice["text"]


def test_the_events_stream_announces_a_challenge_open_and_as_it_comes(
    site: str, alice: User, bob: User, charlie: User
) -> None:
    waiting = services.create_game(host=alice, max_seats=2, is_public=False)
    first = services.challenge_player(public_id=waiting.public_id, user=alice, username="bob")
    stream = Stream(f"{site}/api/v1/stream/events", api_for(bob, "read").token)
    opened = stream.until(lambda line: line["type"] == "challenge")
    assert (opened["id"], opened["game"], opened["challenger"]) == (
        first.public_id,
        waiting.public_id,
        "alice",
    )
    game = services.create_game(host=charlie, max_seats=3)
    made = services.challenge_player(public_id=game.public_id, user=charlie, username="BOB")
    line = stream.until(lambda line: line["type"] == "challenge" and line["id"] == made.public_id)
    assert line["challenger"] == "charlie" and line["seats"] == 3 and line["status"] == "pending"
    # Announced as a challenge, not also as a notice.
    assert not [seen for seen in stream.seen if seen["type"] == "notice"]
