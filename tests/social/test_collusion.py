"""The collusion check (social.collusion): an accepted trade in a rated game
that moves much of one side's wealth to the other for little in return
files an automatic report against both; a fair one does not; a pattern of
lopsided trades between the same two accounts across games does; the trade
itself always stands."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from accounts.models import User
from games import engine, services
from games.models import Game
from people.models import Case, Report
from social.collusion import before_trade, value_trade
from social.models import LopsidedTrade
from tests.games.conftest import _started

pytestmark = pytest.mark.django_db
BOARDWALK, PARK_PLACE = 39, 37


def trade(game: Game, proposer: User, recipient: User, terms: dict[str, Any], capture: Any) -> None:
    """``proposer`` offers ``terms`` to ``recipient``, who accepts; the
    subscribers hear of it after the commit."""
    game.refresh_from_db()
    target = game.seats.get(user=recipient).number
    services.submit_action(
        public_id=game.public_id,
        user=proposer,
        action={"kind": engine.PROPOSE_TRADE, "target": target, "terms": terms},
        expected_version=game.version,
    )
    game.refresh_from_db()
    [offer] = engine.offers(engine.from_dict(game.state))
    with capture(execute=True):
        services.submit_action(
            public_id=game.public_id,
            user=recipient,
            action={"kind": engine.ACCEPT_TRADE, "target": offer.id},
            expected_version=game.version,
        )
    game.refresh_from_db()


def cash(game: Game, user: User) -> int:
    return engine.from_dict(game.state).cash[game.seats.get(user=user).number]


def test_a_lopsided_trade_between_two_people_files_a_report_against_both(
    duel: Game, alice: User, bob: User, no_bot_tasks: Any, django_capture_on_commit_callbacks: Any
) -> None:
    trade(duel, alice, bob, {"give_cash": 1200}, django_capture_on_commit_callbacks)
    assert cash(duel, bob) == 2700  # the trade stands
    reports = Report.objects.order_by("reported__username")
    assert [r.reported for r in reports] == [alice, bob]
    for report in reports:
        assert (report.reporter, report.reason, report.source) == (
            None, "collusion", "collusion_check"
        )  # fmt: skip
        evidence = report.evidence
        assert (evidence["giver"], evidence["taker"], evidence["game"]) == (
            "alice", "bob", duel.public_id
        )  # fmt: skip
        assert evidence["terms"]["give_cash"] == 1200
        assert evidence["valuation"]["giver_loss"] == 1200
        assert evidence["valuation"]["share_percent"] == 80.0
    assert Case.objects.filter(user=bob).exists()


def test_a_fair_trade_is_not_flagged(
    duel: Game,
    alice: User,
    bob: User,
    no_bot_tasks: Any,
    edit_state: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    edit_state(duel, lambda s: engine.setup(s, owners={BOARDWALK: 0}))
    terms = {"give_props": [BOARDWALK], "take_cash": 400}
    trade(duel, alice, bob, terms, django_capture_on_commit_callbacks)
    assert engine.from_dict(duel.state).owner[BOARDWALK] == 1  # the trade happened
    assert not Report.objects.exists() and not LopsidedTrade.objects.exists()


def test_a_trade_in_an_unrated_game_is_not_judged(
    alice: User, bob: User, no_bot_tasks: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = _started(alice, bob, bots=1)  # bots, not rated with them
    trade(game, alice, bob, {"give_cash": 1200}, django_capture_on_commit_callbacks)
    assert cash(game, bob) == 2700
    assert not Report.objects.exists()


def test_repeated_lopsided_trades_between_two_accounts_are_flagged_as_a_pattern(
    settings: Any,
    alice: User,
    bob: User,
    no_bot_tasks: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.COLLUSION_SHARE_PERCENT = 25
    settings.COLLUSION_PATTERN_TRADES = 3
    for n in range(3):
        game = _started(alice, bob)
        # 20% of alice's $1,500: lopsided (over half the share), not flagged alone.
        trade(game, alice, bob, {"give_cash": 300}, django_capture_on_commit_callbacks)
        assert LopsidedTrade.objects.count() == n + 1
        if n < 2:
            assert not Report.objects.exists()
    reports = list(Report.objects.all())
    assert {r.reported for r in reports} == {alice, bob}
    assert all(r.evidence["why"] == "pattern" for r in reports)
    assert all(r.evidence["lopsided_trades"] == 3 for r in reports)
    assert len(reports[0].evidence["games"]) == 3


def test_a_failing_check_never_stops_the_trade(
    duel: Game, alice: User, bob: User, no_bot_tasks: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with mock.patch("social.collusion.value_trade", side_effect=RuntimeError("boom")):
        trade(duel, alice, bob, {"give_cash": 1200}, django_capture_on_commit_callbacks)
    assert cash(duel, bob) == 2700
    assert not Report.objects.exists()


def test_the_valuation_counts_a_completed_colour_group() -> None:
    after = engine.setup(
        engine.new_game("us-2003", ["a", "b"], seed=1), owners={BOARDWALK: 1, PARK_PLACE: 1}
    )
    terms = engine.Terms(give_props=(BOARDWALK,), take_cash=400)
    before = before_trade(after, 0, 1, terms)
    assert before.owner[BOARDWALK] == 0 and before.cash[0] == after.cash[0] - 400
    v = value_trade(before, 0, 1, terms)
    # Bob completes the dark blues: worth more to him than the $400 he paid.
    assert v.recipient_gain > 0 and v.giver == 0
