"""Property tests of random legal play (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    PRESETS,
    SYSTEM,
    Action,
    IllegalAction,
    State,
    apply,
    check_invariants,
    from_dict,
    legal_actions,
    make_record,
    new_game,
    next_actor,
    replay,
    step,
    to_dict,
)
from games.engine import actions as A

PRESET_NAMES = sorted(PRESETS)

_ILLEGAL_PROBES = [
    Action(A.ROLL, 0),
    Action(A.END_TURN, 1),
    Action(A.BUY, 2),
    Action(A.BID, 0, amount=10**9),
    Action(A.PAY_DEBT, 1),
    Action(A.BUILD, 0, square=39),
    Action(A.UNMORTGAGE, 1, square=5),
    Action(A.ACCEPT_TRADE, 2, target=999),
    Action(A.CLAIM_RENT, 0, target=999),
    Action(A.END_NOW, SYSTEM),
    Action(A.PLACE_BUILDING, 0, square=1),
]


def random_play(
    preset: str, players: int, seed: int, picks: list[int]
) -> tuple[State, list[Action]]:
    s = new_game(preset, [f"p{i}" for i in range(players)], seed)
    done: list[Action] = []
    for pick in picks:
        if s.finished:
            break
        p = next_actor(s)
        legal = legal_actions(s, p)
        assert legal, f"player {p} must have a legal action"
        a = legal[pick % len(legal)]
        step(s, a, [])
        done.append(a)
    return s, done


play = st.tuples(
    st.sampled_from(PRESET_NAMES),
    st.integers(2, 5),
    st.integers(0, 2**32),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=150),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(play)
def test_invariants_hold_over_random_legal_play(args: tuple[str, int, int, list[int]]) -> None:
    preset, players, seed, picks = args
    s = new_game(preset, [f"p{i}" for i in range(players)], seed)
    for pick in picks:
        if s.finished:
            break
        p = next_actor(s)
        legal = legal_actions(s, p)
        a = legal[pick % len(legal)]
        s, _ = apply(s, a)
        assert check_invariants(s) == []


@settings(max_examples=25, deadline=None)
@given(play)
def test_replay_and_serialisation_reproduce_the_state(
    args: tuple[str, int, int, list[int]],
) -> None:
    preset, players, seed, picks = args
    s, done = random_play(preset, players, seed, picks)
    rec = json.loads(json.dumps(make_record(preset, s.names, seed, done)))
    assert replay(rec) == s
    d = json.loads(json.dumps(to_dict(s)))
    assert from_dict(d) == s and to_dict(from_dict(d)) == to_dict(s)


@settings(max_examples=25, deadline=None)
@given(play, st.integers(0, 10**6))
def test_every_listed_action_applies_and_illegal_ones_change_nothing(
    args: tuple[str, int, int, list[int]], which: int
) -> None:
    preset, players, seed, picks = args
    s, _ = random_play(preset, players, seed, picks)
    if s.finished:
        return
    snapshot = to_dict(s)
    for p in [*range(players), SYSTEM]:
        for a in legal_actions(s, p):
            apply(s, a)  # must not raise
    for a in _ILLEGAL_PROBES:
        a = a._replace(player=min(a.player, players - 1))
        if a in legal_actions(s, a.player):
            continue
        try:
            apply(s, a)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{a} applied but was not listed as legal")
    assert to_dict(s) == snapshot
    del which


@settings(max_examples=30, deadline=None)
@given(play)
def test_every_pending_decision_has_a_legal_timeout_action(
    args: tuple[str, int, int, list[int]],
) -> None:
    """The server can always resolve a deadline with ``timeout_action``."""
    from games.engine import is_legal, pending_decisions, timeout_action

    preset, players, seed, picks = args
    s, _ = random_play(preset, players, seed, picks)
    for d in pending_decisions(s):
        a = timeout_action(s, d.player)
        assert is_legal(s, a), (d, a)
