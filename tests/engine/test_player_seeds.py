"""The dice key made of the committed secret and the players' seeds
(``engine.dice_key``), and the records that reveal them at the end."""

from __future__ import annotations

import copy
import hmac
import json
from hashlib import sha256
from pathlib import Path
from typing import Any

import pytest

from games import engine

SECRET = "5e" * 32
FIXTURES = Path(__file__).parent / "fixtures"


def test_the_dice_key_is_hmac_sha256_of_the_secret_and_the_length_prefixed_seeds() -> None:
    # The documented construction (docs/fair-dice.md), from hmac alone, and
    # a known vector for verifiers in other languages.
    message = b"monopoly fair dice v1" + bytes([0]) + bytes([16]) + bytes([0x11] * 16)
    expected = hmac.new(bytes(32), message, sha256).hexdigest()
    assert engine.dice_key("00" * 32, [None, "11" * 16]) == expected
    assert expected == "a7f27623b04c81de146014b5fa04f0fd81eccd39532216269bf72c282149de80"


def test_a_seat_without_a_seed_adds_the_same_as_a_bots() -> None:
    assert engine.dice_key(SECRET, ["", "ab" * 16]) == engine.dice_key(SECRET, [None, "ab" * 16])


def test_every_seed_and_its_seat_change_the_key() -> None:
    base = engine.dice_key(SECRET, ["ab" * 16, None])
    assert engine.dice_key(SECRET, [None, "ab" * 16]) != base
    assert engine.dice_key(SECRET, ["ab" * 16 + "cd", None]) != base
    assert engine.dice_key(SECRET, ["ab" * 16, None, None]) != base
    assert engine.dice_key("a7" * 32, ["ab" * 16, None]) != base
    # Length prefixes: moving bytes from one seed to the next is another key.
    assert engine.dice_key(SECRET, ["ab" * 17, "cd" * 16]) != engine.dice_key(
        SECRET, ["ab" * 16, "ab" + "cd" * 16]
    )


@pytest.mark.parametrize("seed", ["ab" * 15, "ab" * 65, "xyz" * 12, "abc" * 11, "ab cd" * 8])
def test_rejects_a_seed_that_is_not_16_to_64_bytes_of_hex(seed: str) -> None:
    with pytest.raises(ValueError, match="hex"):
        engine.dice_key(SECRET, [seed])


def _finished(seeds: list[str | None] | None) -> dict[str, Any]:
    """A whole bot game keyed as the site keys it, and its final record."""
    players = [f"p{i}" for i in range(3)]
    key = SECRET if seeds is None else engine.dice_key(SECRET, seeds)
    events: list[engine.Event] = []
    s = engine.new_game("us-2003", players, 0, events, secret=key)
    actions: list[engine.Action] = []
    bots = [engine.make_bot("heuristic", rng=engine.bot_rng(s, i)) for i in range(3)]
    while not s.finished and len(actions) < 20000:
        p = engine.next_actor(s)
        action = bots[p].act(s, p)
        s, new = engine.apply(s, action)
        actions.append(action)
        events.extend(new)
    record = engine.make_record("us-2003", players, 0, actions, secret=SECRET, seeds=seeds)
    record["outcomes"] = engine.random_outcomes(events)
    record["final_state_sha256"] = engine.state_digest(engine.to_dict(s))
    return record


@pytest.fixture(scope="module")
def seeded() -> dict[str, Any]:
    return _finished(["c3" * 32, "", None])


def test_a_seeded_record_verifies_and_names_the_key(seeded: dict[str, Any]) -> None:
    assert seeded["seeds"] == ["c3" * 32, "", None]
    result = engine.verify_record(seeded)
    assert result.ok, result.checks
    name, passed, detail = result.checks[1]
    assert name == "dice key" and passed
    assert engine.dice_key(SECRET, ["c3" * 32, "", None]) in detail
    assert "1 gave one, 1 gave none, 1 site bots" in detail


def test_a_changed_seed_fails_verification(seeded: dict[str, Any]) -> None:
    record = copy.deepcopy(seeded)
    record["seeds"][0] = "c4" + "c3" * 31
    result = engine.verify_record(record)
    assert not result.ok
    assert result.checks[0][:2] == ("commitment", True)
    assert any(not passed for name, passed, _ in result.checks if name != "dice key")


def test_a_seed_dropped_from_the_record_fails_verification(seeded: dict[str, Any]) -> None:
    record = copy.deepcopy(seeded)
    record["seeds"][0] = ""
    assert not engine.verify_record(record).ok


def test_seeds_that_do_not_fit_the_players_are_refused(seeded: dict[str, Any]) -> None:
    record = copy.deepcopy(seeded)
    record["seeds"] = record["seeds"][:2]
    result = engine.verify_record(record)
    assert not result.ok and result.checks[-1][0] == "seeds"
    assert "2 seeds for 3 players" in result.checks[-1][2]


def test_the_record_of_a_running_game_hides_the_seeds() -> None:
    record = engine.make_record(
        "us-2003", ["a", "b"], 0, [], secret=SECRET, seeds=["ab" * 16, None], reveal=False
    )
    assert record["secret"] is None and record["seeds"] is None
    with pytest.raises(engine.CodecError, match="no secret"):
        engine.replay(record)


def test_a_game_without_a_person_keeps_the_secret_as_its_key() -> None:
    record = _finished(None)
    assert "seeds" not in record
    assert engine.verify_record(record).ok


def test_a_record_made_before_player_seeds_still_verifies() -> None:
    # Made by the code before this change (tests/engine/fixtures/, commit 3ec3a4f).
    record = json.loads((FIXTURES / "record_before_player_seeds.json").read_text())
    assert "seeds" not in record
    result = engine.verify_record(record)
    assert result.ok, result.checks
    assert [name for name, _, _ in result.checks] == [
        "commitment", "dice key", "moves", "throws and cards", "final state", "finished",
    ]  # fmt: skip
