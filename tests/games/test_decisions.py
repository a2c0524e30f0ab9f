"""The decision registry (``games.decisions``) is the one place that names
each kind of decision and says how its clock runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import decisions, engine
from games.models import Deadline, Game
from games.timer_presenters import deadline_rows
from notifications import decisions as notices
from tests.conftest import setup_writes


def test_every_engine_decision_kind_has_an_entry() -> None:
    assert decisions.missing_kinds() == []
    assert set(engine.DECISION_KINDS) | {decisions.TIME_LIMIT} == set(decisions.KINDS)


def test_windows_are_exactly_the_kinds_that_do_not_hold_up_the_game() -> None:
    assert {"claim_rent", "trade_response", "time_limit"} == decisions.WINDOW_KINDS
    assert decisions.NON_BLOCKING_KINDS == decisions.WINDOW_KINDS


def test_an_unknown_kind_reads_as_its_own_words() -> None:
    assert decisions.label("some_new_kind") == "some new kind"
    assert decisions.words("some_new_kind") == "some new kind"


@pytest.mark.django_db
def test_the_timer_row_and_the_notice_use_the_registrys_words(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        decisions.KINDS, "roll", decisions.DecisionKind("roll", "throw", "throw the dice now")
    )
    state = engine.from_dict(duel.state)
    with setup_writes("one roll deadline"):
        Deadline.objects.filter(game=duel).delete()
        Deadline.objects.create(
            game=duel, player=state.turn, kind="roll", ref="", version=duel.version,
            started_at=timezone.now(), due_at=timezone.now() + timedelta(hours=1),
        )  # fmt: skip
    (row,) = deadline_rows(duel, state, None)
    assert row["what"] == "throw"
    with setup_writes("its notice due"):
        Deadline.objects.filter(game=duel).update(notice_due=True)
    assert notices.your_turn(duel.pk) == 1
    note = duel.seats.get(number=state.turn).user.notifications.get(kind="your_turn")
    assert "you must throw the dice now by" in note.text
