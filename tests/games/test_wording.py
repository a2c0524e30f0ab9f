"""The rough text of issue #31: why a game ended in words (never an
identifier such as "last_player") in the turn line, the log, the replay and
the API's stream; net worth as money; and one format for a deadline's moment
wherever the server writes it."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils.timezone import override

from accounts.models import User
from api import reads
from games import engine, services, wording
from games.deadlines import format_deadline
from games.models import Deadline, Game
from games.web import presenters
from games.web.snapshot import Snapshot

pytestmark = pytest.mark.usefixtures("no_bot_tasks")

ENGINE_REASONS = (
    "last_player", "first_bankruptcy", "second_bankruptcy", "time", "turn_limit", "length_cap",
)  # fmt: skip


@pytest.mark.parametrize("reason", ENGINE_REASONS)
def test_every_end_reason_has_words_not_an_identifier(reason: str) -> None:
    words = wording.end_reason(reason)
    assert "_" not in words and words != reason and words


def test_an_unknown_end_reason_still_reads_as_words() -> None:
    assert wording.end_reason("board_flipped") == "board flipped"
    assert wording.end_reason("") == "the game ended"


def test_game_over_line_names_the_winner_and_the_reason() -> None:
    assert wording.game_over("last_player", "Ada") == "Game over (one player is left): Ada wins."
    assert wording.game_over("time", None) == "Game over (time ran out)."


def test_net_worth_of_a_stored_game_is_money_in_its_currency() -> None:
    us = engine.to_dict(engine.new_game(engine.ruleset("us-2003"), ["A", "B"], seed=1))
    uk = engine.to_dict(engine.new_game(engine.ruleset("uk"), ["A", "B"], seed=1))
    assert wording.game_money(us, 8999) == "$8,999"
    assert wording.game_money(uk, 12000) == "£12,000"
    assert wording.game_money(None, -5) == "-$5"


def test_a_deadline_is_written_in_one_format_in_the_active_zone() -> None:
    moment = datetime(2026, 11, 29, 0, 48, tzinfo=UTC)
    assert format_deadline(moment) == "Sun 29 Nov, 00:48 UTC"  # a push: no reader's zone
    with override(ZoneInfo("Asia/Kolkata")):
        assert format_deadline(moment) == "Sun 29 Nov, 06:18 GMT+5:30"
    # As static/js/countdown.js writes them: the zone by its offset.
    assert format_deadline(moment, ZoneInfo("America/New_York")) == "Sat 28 Nov, 19:48 GMT-5"
    assert format_deadline(moment, ZoneInfo("Europe/London")) == "Sun 29 Nov, 00:48 GMT"
    assert format_deadline(moment, ZoneInfo("Europe/Paris")) == "Sun 29 Nov, 01:48 GMT+1"


def finished(duel: Game, loser: User) -> Game:
    services.resign(public_id=duel.public_id, user=loser, expected_version=duel.version)
    duel.refresh_from_db()
    return duel


def test_the_log_and_the_turn_line_word_why_the_game_ended(duel: Game, bob: User) -> None:
    game = finished(duel, bob)
    snap = Snapshot.of(game)
    assert snap.state is not None
    assert presenters.turn_line(snap.state) == "Game over (one player is left): alice wins."
    lines = [line["text"] for line in presenters.log_lines(snap, None)]
    assert "Game over (one player is left): alice wins." in lines
    assert not [line for line in lines if "last_player" in line]


def test_the_replay_and_the_game_page_never_show_the_identifier(
    client: Client, duel: Game, bob: User
) -> None:
    game = finished(duel, bob)
    for url in (game.get_absolute_url(), f"/games/{game.public_id}/replay/"):
        page = client.get(url).content.decode()
        assert "last_player" not in page, url
        assert "Game over (one player is left): alice wins." in page, url


def test_deadlines_read_alike_on_the_game_page_and_the_lobby(client: Client, duel: Game) -> None:
    due = Deadline.objects.filter(game=duel).order_by("due_at").first()
    assert due is not None
    written = format_deadline(due.due_at)
    client.force_login(duel.seats.get(number=due.player).user)  # the lobby shows their own
    for url in (duel.get_absolute_url(), "/lobby/"):
        page = client.get(url).content.decode()
        assert re.search(rf"<time data-local [^>]*>{re.escape(written)}</time>", page), url


def test_the_apis_event_text_words_the_end_too() -> None:
    s = engine.new_game(engine.ruleset("us-2003"), ["Ada", "Grace"], seed=1)
    entry = reads.event_entry(engine.Event("game_over", 1, ("time",)), s)
    assert entry["reason"] == "time"  # the identifier stays, for programs
    assert entry["text"] == "Game over (time ran out): Grace wins."
