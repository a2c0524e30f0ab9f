"""The keyed generator of the site's games, commit-and-reveal records, and
the check that a finished game's dice followed from its secret."""

from __future__ import annotations

import copy
from collections import Counter
from hashlib import sha256
from typing import Any

import pytest

from games import engine
from games.engine import play_game
from games.engine.rng import GAME_STREAM, keyed_below, keyed_shuffle, secret_key

SECRET = "5e" * 32
OTHER = "a7" * 32


def _finished_record(secret: str = SECRET) -> tuple[dict[str, Any], engine.State]:
    """A whole bot game on the keyed generator, and its record as the site
    publishes it once the game is over."""
    s = engine.new_game("us-2003", ["ann", "bob", "cy"], 0, secret=secret)
    events: list[engine.Event] = list(_setup_events(secret))
    actions: list[engine.Action] = []
    bots = [engine.make_bot("heuristic", rng=engine.bot_rng(s, i)) for i in range(3)]
    while not s.finished and len(actions) < 20000:
        p = engine.next_actor(s)
        action = bots[p].act(s, p)
        s, new = engine.apply(s, action)
        actions.append(action)
        events.extend(new)
    assert s.finished
    record = engine.make_record("us-2003", ["ann", "bob", "cy"], 0, actions, secret=secret)
    record["outcomes"] = engine.random_outcomes(events)
    record["final_state_sha256"] = engine.state_digest(engine.to_dict(s))
    return record, s


def _setup_events(secret: str) -> list[engine.Event]:
    events: list[engine.Event] = []
    engine.new_game("us-2003", ["ann", "bob", "cy"], 0, events, secret=secret)
    return events


@pytest.fixture(scope="module")
def finished() -> tuple[dict[str, Any], engine.State]:
    return _finished_record()


def test_the_same_secret_gives_the_same_game() -> None:
    a = engine.new_game("us-2003", ["a", "b"], 0, secret=SECRET)
    b = engine.new_game("us-2003", ["a", "b"], 99, secret=SECRET)
    assert a == b
    assert a.generator == engine.GEN_KEYED


def test_another_secret_shuffles_the_decks_differently() -> None:
    a = engine.new_game("us-2003", ["a", "b"], 0, secret=SECRET)
    b = engine.new_game("us-2003", ["a", "b"], 0, secret=OTHER)
    assert a.decks != b.decks


def test_rejects_a_secret_shorter_than_256_bits() -> None:
    with pytest.raises(engine.RuleViolation, match="32 to 64 bytes"):
        engine.new_game("us-2003", ["a", "b"], 0, secret="ab" * 31)


def test_rejects_a_secret_that_is_not_hex() -> None:
    with pytest.raises(engine.RuleViolation):
        engine.new_game("us-2003", ["a", "b"], 0, secret="zz" * 32)


def test_keyed_dice_are_uniform_over_the_36_outcomes() -> None:
    key, counter, seen = secret_key(SECRET), 0, Counter[int]()
    for _ in range(36 * 500):
        counter, r = keyed_below(key, GAME_STREAM, counter, 36)
        seen[r] += 1
    assert sorted(seen) == list(range(36))
    # Chi-square with 35 degrees of freedom: 66.6 is its 0.1% tail.
    chi2 = sum((n - 500) ** 2 / 500 for n in seen.values())
    assert chi2 < 66.6


def test_keyed_shuffle_is_a_permutation() -> None:
    items = list(range(16))
    keyed_shuffle(secret_key(SECRET), GAME_STREAM, 7, items)
    assert sorted(items) == list(range(16))
    assert items != list(range(16))


def test_the_keyed_dice_are_blake2b_of_the_secret_and_a_counter() -> None:
    # The documented construction, recomputed from hashlib alone, so a
    # verifier in another language can follow docs/fair-dice.md.
    from hashlib import blake2b

    word = blake2b(b"game:" + (0).to_bytes(8, "big"), key=bytes.fromhex(SECRET), digest_size=8)
    assert keyed_below(secret_key(SECRET), GAME_STREAM, 0, 36) == (
        1,
        int.from_bytes(word.digest(), "big") % 36,
    )


def test_splitmix64_games_still_replay_from_their_seed() -> None:
    s = engine.new_game("us-2003", ["a", "b"], 42)
    assert s.generator == engine.GEN_SPLITMIX
    assert s.secret == ""
    record = engine.make_record("us-2003", ["a", "b"], 42, [])
    assert record["generator"] == "splitmix64"
    assert engine.replay(record) == s


def test_a_keyed_state_round_trips_through_json() -> None:
    s = engine.new_game("us-2003", ["a", "b"], 0, secret=SECRET)
    s, _ = engine.apply(s, engine.legal_actions(s, s.turn)[0])
    assert engine.from_dict(engine.to_dict(s)) == s


def test_a_state_of_schema_version_1_reads_as_splitmix64() -> None:
    s = engine.new_game("us-2003", ["a", "b"], 42)
    old = engine.to_dict(s)
    old["schema_version"] = 1
    del old["generator"], old["secret"]
    assert engine.from_dict(old) == s


def test_bots_draw_from_a_keyed_stream_per_move() -> None:
    s = engine.new_game("us-2003", ["a", "b"], 0, secret=SECRET)
    first = [engine.bot_rng(s, 5).below(1000) for _ in range(3)]
    assert first == [engine.bot_rng(s, 5).below(1000) for _ in range(3)]
    assert [engine.bot_rng(s, 6).below(1 << 30) for _ in range(3)] != [
        engine.bot_rng(s, 5).below(1 << 30) for _ in range(3)
    ]
    other = engine.new_game("us-2003", ["a", "b"], 0, secret=OTHER)
    assert engine.bot_rng(other, 5).below(1 << 30) != engine.bot_rng(s, 5).below(1 << 30)


def test_the_record_of_a_running_game_carries_no_secret() -> None:
    record = engine.make_record("us-2003", ["a", "b"], 0, [], secret=SECRET, reveal=False)
    assert record["secret"] is None
    assert "seed" not in record
    assert record["commitment"] == sha256(bytes.fromhex(SECRET)).hexdigest()
    assert SECRET not in str(record)
    with pytest.raises(engine.CodecError, match="still running"):
        engine.replay(record)


def test_a_finished_record_verifies(finished: tuple[dict[str, Any], engine.State]) -> None:
    record, final = finished
    result = engine.verify_record(record)
    assert result.ok, result.checks
    assert [name for name, _, _ in result.checks] == [
        "commitment",
        "dice key",
        "moves",
        "throws and cards",
        "final state",
        "finished",
    ]
    assert engine.replay(record) == final


def test_verification_fails_when_the_secret_does_not_match_the_commitment(
    finished: tuple[dict[str, Any], engine.State],
) -> None:
    record = copy.deepcopy(finished[0])
    record["secret"] = OTHER
    result = engine.verify_record(record)
    assert not result.ok
    assert result.checks[-1][0] == "commitment"


def test_verification_fails_when_a_shown_throw_differs(
    finished: tuple[dict[str, Any], engine.State],
) -> None:
    record = copy.deepcopy(finished[0])
    throw = next(o for o in record["outcomes"] if o[0] == "dice")
    throw[2] = [throw[2][0] % 6 + 1, throw[2][1]]
    result = engine.verify_record(record)
    assert not result.ok
    assert ("throws and cards", False) in [(n, ok) for n, ok, _ in result.checks]


def test_verification_fails_when_the_final_state_differs(
    finished: tuple[dict[str, Any], engine.State],
) -> None:
    record = copy.deepcopy(finished[0])
    record["final_state_sha256"] = "0" * 64
    assert not engine.verify_record(record).ok


def test_verification_fails_when_a_move_is_not_legal(
    finished: tuple[dict[str, Any], engine.State],
) -> None:
    record = copy.deepcopy(finished[0])
    record["actions"].insert(3, {"kind": "end_turn", "player": 2})
    checks = engine.verify_record(record).checks
    assert checks[-1][:2] == ("moves", False)


def test_simulation_keeps_the_fast_generator() -> None:
    result = play_game(engine.ruleset("us-2003"), 2, 1, "heuristic", "pay", 50)
    assert result.state.generator == engine.GEN_SPLITMIX
