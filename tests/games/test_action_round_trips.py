"""What one action costs in database round trips: a move that sets off
instant bots' answers writes the game row, its events and its deadline rows
once, not once per version; and the page's action stays within its count."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import engine, services
from games.models import Deadline, Game
from tests.games.conftest import bots_play_until_seat_zero_acts

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_bot_tasks")]


def statements(queries: CaptureQueriesContext, start: str) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(start)]


def _alice_to_end_her_turn(game: Game, alice: User) -> engine.Action:
    """Alice (seat 0) is left with ending her turn as her next move; the bot
    then plays its whole turn within her write."""
    bots_play_until_seat_zero_acts(game)
    for _ in range(20):
        game.refresh_from_db()
        state = engine.from_dict(game.state)
        legal = engine.legal_actions(state, 0)
        end = next((a for a in legal if a.kind == engine.END_TURN), None)
        if end is not None:
            return end
        action = next((a for a in legal if a.kind in ("roll", "buy")), legal[0])
        services.submit_action(
            public_id=game.public_id,
            user=alice,
            action=action.to_dict(),
            expected_version=game.version,
        )
    raise AssertionError("alice never came to end her turn")


def test_a_move_answered_by_instant_bots_writes_each_table_once(alice: User) -> None:
    game = services.create_seated_game(
        humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=0
    )
    end = _alice_to_end_her_turn(game, alice)
    game.refresh_from_db()
    before = game.version
    with CaptureQueriesContext(connection) as queries:
        services.submit_action(
            public_id=game.public_id, user=alice, action=end.to_dict(), expected_version=before
        )
    game.refresh_from_db()
    # Alice's move, then the bot's turn (at least a roll and its end): each a
    # version with its own events, written together.
    assert game.version >= before + 3
    assert len(statements(queries, 'UPDATE "GAMES_GAME"')) == 1
    assert len(statements(queries, 'INSERT INTO "GAMES_GAMEEVENT"')) == 1
    assert len(statements(queries, 'INSERT INTO "GAMES_DEADLINE"')) <= 1
    assert len(statements(queries, 'DELETE FROM "GAMES_DEADLINE"')) <= 1
    seqs = set(game.events.filter(seq__gt=before).values_list("seq", flat=True))
    assert seqs == set(range(before + 1, game.version + 1))
    # The rows stored are the decisions open now, at the version written; the
    # bot's, made and answered within the write, were never stored.
    state = engine.from_dict(game.state)
    rows = list(Deadline.objects.filter(game=game))
    assert {(d.player, d.kind, d.ref) for d in rows} == {
        (p.player, p.kind, str(p.ref)) for p in engine.pending_decisions(state)
    }
    assert all(d.version == game.version for d in rows)
    assert all(d.player == 0 for d in rows)


def test_the_rows_a_write_announces_are_the_rows_it_stored(alice: User) -> None:
    from games.services import subscribers

    heard: list[Any] = []
    subscribers.subscribe(subscribers.Subscriber("test rows", in_transaction=heard.append))
    try:
        game = services.create_seated_game(
            humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=0
        )
        end = _alice_to_end_her_turn(game, alice)
        game.refresh_from_db()
        heard.clear()
        services.submit_action(
            public_id=game.public_id,
            user=alice,
            action=end.to_dict(),
            expected_version=game.version,
        )
    finally:
        subscribers._subscribers.pop("test rows", None)
    (record,) = heard
    stored = {d.pk: d for d in Deadline.objects.filter(game=game)}
    assert record.deadlines and all(d.pk in stored for d in record.deadlines)
    assert {d.pk for d in record.deadlines} == set(stored)
    assert all(e.pk is not None for e in record.events)


HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.skipif(not ON_POSTGRES, reason="the lock reads in one round trip on PostgreSQL only")
@pytest.mark.urls("tests.games.play_urls")
def test_a_page_action_against_an_instant_bot_costs_a_fixed_number_of_queries(
    alice: User,
) -> None:
    game = services.create_seated_game(
        humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=0
    )
    end = _alice_to_end_her_turn(game, alice)
    game.refresh_from_db()
    client = Client()
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            f"/games/{game.public_id}/act",
            {"kind": end.kind, "expected_version": game.version},
            **HTMX,
        )
    assert answer.status_code == 200
    assert Game.objects.get(pk=game.pk).version >= game.version + 3
    writes = [
        q["sql"][:40]
        for q in queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    # The player's seat, then the game row, the events and the deadline
    # rows' diff, whatever number of versions the bot's turn made.
    assert len(writes) <= 5, writes
