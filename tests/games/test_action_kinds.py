"""The action registry (``games.action_kinds``) is the one place that says
what the site does with each engine action kind: a kind without an entry,
or with an entry that disagrees with the engine, is named."""

from __future__ import annotations

from django.http import QueryDict

from common import ratelimit
from games import action_kinds, decisions, engine
from games.web import hints
from games.web.action_forms import derived_form, parse_action


def test_every_engine_action_kind_has_an_entry_that_matches_the_engine() -> None:
    assert action_kinds.missing_kinds() == []


def test_a_new_engine_kind_without_an_entry_is_named() -> None:
    kinds = engine.ACTION_KINDS | {"offer_loan"}
    params = {**engine.ACTION_PARAMS, "offer_loan": (engine.TARGET, engine.AMOUNT)}
    assert action_kinds.missing_kinds(kinds, params) == [
        "action kind 'offer_loan' has no entry in games/action_kinds.py"
    ]


def test_an_entry_whose_fields_differ_from_the_engine_is_named() -> None:
    params = {**engine.ACTION_PARAMS, engine.MORTGAGE: (engine.TARGET,)}
    (problem,) = action_kinds.missing_kinds(engine.ACTION_KINDS, params)
    assert "'mortgage'" in problem and "('square',)" in problem


def test_the_kinds_placed_with_the_decisions_answer_one() -> None:
    answering = {a for entry in decisions.KINDS.values() for a in entry.answers}
    placed = action_kinds.kinds_at(action_kinds.DECISION)
    assert placed <= answering <= placed | action_kinds.kinds_at(action_kinds.ANSWER)
    assert decisions.missing_kinds() == []


def test_each_rate_limit_scope_is_a_per_person_limit() -> None:
    scopes = {entry.scope for entry in action_kinds.KINDS.values()} - {None}
    assert scopes and scopes <= ratelimit.PER_PERSON
    assert action_kinds.scope(engine.PROPOSE_TRADE) == "trade"
    assert action_kinds.scope(engine.ROLL) is None


def test_the_hint_kinds_are_exactly_those_the_entries_list() -> None:
    module_kinds = {v for k, v in vars(hints).items() if k.isupper() and isinstance(v, str)}
    assert module_kinds == action_kinds.hint_kinds()
    assert action_kinds.hint_kinds() >= hints.DECISION_KINDS


def test_each_posted_kind_reads_back_the_fields_its_entry_names() -> None:
    for kind in sorted(action_kinds.PLAYER_KINDS):
        entry = action_kinds.of(kind)
        data = QueryDict(mutable=True)
        data["kind"] = kind
        for param in entry.params:
            if param.name != engine.TERMS:
                data[param.name] = param.example
        action = parse_action(data)
        assert set(action) == {"kind", *engine.ACTION_PARAMS[kind]}, kind


def test_a_kind_with_no_form_of_its_own_gets_one_from_its_entry() -> None:
    form = derived_form(engine.Action(engine.BID, 0, amount=12))
    assert form.label == "Bid" and form.number is not None
    assert (form.number.min, form.number.value) == (0, 12)
    form = derived_form(engine.Action(engine.CLAIM_RENT, 1, target=4))
    assert (form.label, form.params) == ("Claim rent", {"target": 4})


def test_the_timer_notice_names_a_move_in_the_panels_words() -> None:
    assert decisions.played(engine.PASS_BID) == "Pass"
    assert decisions.played(engine.REJECT_TRADE) == "Reject the trade"
    assert decisions.played("some_old_kind") == "Some old kind"
