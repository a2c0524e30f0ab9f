"""The decision registry (``games.decisions``) is the one place that names
each kind of decision and says how its clock runs."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.utils import timezone

from games import action_kinds, decisions, engine
from games.models import Deadline, Game
from games.web.snapshot import Snapshot
from games.web.timer_presenters import deadline_rows
from notifications import decisions as notices
from tests.conftest import setup_writes


def test_every_engine_decision_kind_has_an_entry() -> None:
    assert decisions.missing_kinds() == []
    assert set(engine.DECISION_KINDS) | decisions.GAME_END_KINDS == set(decisions.KINDS)


def test_every_action_kind_answers_a_decision_or_is_placed_elsewhere() -> None:
    answers = set(decisions.ANSWER_ORDER)
    elsewhere = action_kinds.kinds_at(action_kinds.ANSWER)
    assert action_kinds.kinds_at(action_kinds.DECISION) <= answers
    assert answers <= action_kinds.kinds_at(action_kinds.DECISION) | elsewhere
    assert engine.BUILD not in answers and engine.END_CAP not in answers


def positions(games: int = 12, moves: int = 250) -> list[engine.State]:
    """Positions from random bot games, every decision kind among them."""
    out = []
    for seed in range(games):
        rules = engine.ruleset("us-2003" if seed % 2 else "uk")
        s = engine.new_game(rules, ["a", "b", "c"], seed=seed)
        bot = engine.make_bot("random", seed=seed)
        for _ in range(moves):
            if s.finished:
                break
            out.append(s)
            s, _ = engine.apply(s, bot.act(s, engine.next_actor(s)))
    return out


def test_each_entry_words_its_decisions_and_defaults_to_a_legal_action() -> None:
    seen = set()
    for s in positions():
        for d in engine.pending_decisions(s):
            seen.add(d.kind)
            text = decisions.describe(s, d)
            assert s.names[d.player] in text and "must decide (" not in text
            timeout = decisions.timeout_action(s, d.kind, d.player, str(d.ref))
            assert engine.is_legal(s, timeout), (d, timeout)
            if d.kind != engine.D_TRADE:  # answered per offer, beside the panel's decisions
                kinds = {a.kind for a in engine.legal_actions(s, d.player)}
                assert kinds & set(decisions.KINDS[d.kind].answers), d
    assert seen >= {engine.D_ROLL, engine.D_BUY, engine.D_BID, engine.D_END_TURN}


def test_windows_are_exactly_the_kinds_that_do_not_hold_up_the_game() -> None:
    assert {"claim_rent", "trade_response", "time_limit", "length_cap"} == decisions.WINDOW_KINDS
    assert decisions.NON_BLOCKING_KINDS == decisions.WINDOW_KINDS


def test_an_unknown_kind_reads_as_its_own_words() -> None:
    assert decisions.label("some_new_kind") == "some new kind"
    assert decisions.words("some_new_kind") == "some new kind"


@pytest.mark.django_db
def test_the_timer_row_and_the_notice_use_the_registrys_words(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    throw = dataclasses.replace(decisions.KINDS["roll"], label="throw", words="throw the dice now")
    monkeypatch.setitem(decisions.KINDS, "roll", throw)
    state = engine.from_dict(duel.state)
    with setup_writes("one roll deadline"):
        Deadline.objects.filter(game=duel).delete()
        Deadline.objects.create(
            game=duel, player=state.turn, kind="roll", ref="", version=duel.version,
            started_at=timezone.now(), due_at=timezone.now() + timedelta(hours=1),
        )  # fmt: skip
    (row,) = deadline_rows(Snapshot.of(duel, state=state), None)
    assert row["what"] == "throw"
    with setup_writes("its notice due"):
        Deadline.objects.filter(game=duel).update(notice_at=timezone.now())
    assert notices.your_turn(duel.pk) == 1
    note = duel.seats.get(number=state.turn).user.notifications.get(kind="your_turn")
    assert note.text.endswith(": throw the dice now.")
