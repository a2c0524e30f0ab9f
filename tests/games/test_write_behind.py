"""A move's chain of versions (the instant bots' answers, standing orders) is
written once at its end (``Write.write_behind``): the same rows as writing
each version, in a few statements whatever the chain's length."""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import engine, services
from games.models import Deadline, Game, GameEvent
from games.services.write import Write

pytestmark = pytest.mark.django_db


def _instant_game(alice: User) -> Game:
    # A cap in days: a deadline row that every version of the chain keeps.
    game = services.create_seated_game(
        humans=[alice],
        bots=["heuristic"],
        start=True,
        bot_delay_ms=0,
        switches={"cap_days": 30},
    )
    for _ in range(50):  # a bot that opens moves from its due row
        game.refresh_from_db()
        if engine.next_actor(engine.from_dict(game.state)) == 0:
            break
        assert services.play_bot_move(game.pk, game.version)
    return game


def _alices_move(game: Game) -> dict[str, Any]:
    state = engine.from_dict(game.state)
    legal = engine.legal_actions(state, 0)
    preferred = ("roll", "buy", "end_turn", "pay_bail", "bid_pass")
    return next((a for a in legal if a.kind in preferred), legal[0]).to_dict()


def _rows(game: Game, before: set[int]) -> dict[str, Any]:
    """What the database holds of the game, but for the times the clock read."""
    game.refresh_from_db()
    held = game.held_clock
    deadlines = sorted(
        (
            d.player, d.kind, d.ref, d.version, d.pk if d.pk in before else "new",
            d.due_at - d.started_at, d.remind_at is None, d.reminded, d.notice_at is None,
        )
        for d in Deadline.objects.filter(game=game)
    )  # fmt: skip
    events = list(
        GameEvent.objects.filter(game=game)
        .order_by("seq", "index")
        .values_list("seq", "index", "kind", "payload", "audience_seat")
    )
    return {
        "version": game.version,
        "state": game.state,
        "status": game.status,
        "bot_due": game.auto_move_at is not None,
        "held": None if held is None else (held["player"], held["kind"], held["ref"]),
        "deadlines": deadlines,
        "events": events,
    }


def _version_at_a_time(self: Write) -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()


def test_a_chain_written_at_its_end_leaves_the_rows_a_version_at_a_time_leaves(
    alice: User,
) -> None:
    game = _instant_game(alice)
    chains = 0
    for _ in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        action, version = _alices_move(game), game.version
        before = set(Deadline.objects.filter(game=game).values_list("pk", flat=True))
        # The same move twice from the same version (the dice and the bot's
        # choices come from the game's secret): first each version written
        # as it is made, rolled back, then the chain written at its end.
        with transaction.atomic():
            point = transaction.savepoint()
            with mock.patch.object(Write, "write_behind", _version_at_a_time):
                services.submit_action(
                    public_id=game.public_id, user=alice, action=action, expected_version=version
                )
            reference = _rows(game, before)
            transaction.savepoint_rollback(point)
        services.submit_action(
            public_id=game.public_id, user=alice, action=action, expected_version=version
        )
        assert _rows(game, before) == reference
        chains += reference["version"] > version + 1
    assert chains >= 3, "the bot's turns came within alice's moves"


def test_a_move_and_its_instant_answers_write_each_table_once(alice: User) -> None:
    game = _instant_game(alice)
    longest = 0
    for _ in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        version = game.version
        cap = Deadline.objects.get(game=game, kind="length_cap")
        with CaptureQueriesContext(connection) as queries:
            services.submit_action(
                public_id=game.public_id,
                user=alice,
                action=_alices_move(game),
                expected_version=version,
            )
        game.refresh_from_db()
        statements = Counter(
            " ".join(q["sql"].split()[:3]).split("(")[0]
            for q in queries
            if "SAVEPOINT" not in q["sql"]
        )
        assert statements['UPDATE "games_game" SET'] == 1, statements
        assert statements['INSERT INTO "games_gameevent"'] == 1, statements
        deadline_statements = sum(n for s, n in statements.items() if "games_deadline" in s)
        assert deadline_statements <= 3, statements
        # Every version's events are there, each under its own version.
        seqs = set(
            GameEvent.objects.filter(game=game, seq__gt=version).values_list("seq", flat=True)
        )
        assert seqs == set(range(version + 1, game.version + 1))
        # The rows are those of the last version: the cap's kept its row and clock.
        rows = list(Deadline.objects.filter(game=game))
        assert all(d.version == game.version for d in rows)
        kept = next(d for d in rows if d.kind == "length_cap")
        assert (kept.pk, kept.due_at) == (cap.pk, cap.due_at)
        longest = max(longest, game.version - version)
    assert longest >= 3, "a chain of several versions was written"


class _Blunderer:
    """A bot whose every answer is one the engine refuses."""

    def act(self, state: engine.State, player: int) -> engine.Action:
        return engine.Action("build", player, square=-7)


def test_a_chain_that_fails_half_way_writes_nothing(alice: User) -> None:
    game = _instant_game(alice)
    for _ in range(20):
        game.refresh_from_db()
        known = set(Deadline.objects.filter(game=game).values_list("pk", flat=True))
        before, action = _rows(game, known), _alices_move(game)
        # The move itself is applied (in memory) before the bot's refused answer.
        with mock.patch("games.services.play.engine.make_bot", return_value=_Blunderer()):
            try:
                services.submit_action(
                    public_id=game.public_id, user=alice, action=action,
                    expected_version=game.version,
                )  # fmt: skip
            except services.IllegalMove:
                assert _rows(game, known) == before
                return
    raise AssertionError("the bot was never to answer alice")
