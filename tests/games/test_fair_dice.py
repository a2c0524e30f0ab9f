"""Fair dice on the site: a secret per game, its commitment shown from the
start, nothing that tells the future served while the game runs, and a
record that verifies once it has ended."""

from __future__ import annotations

import base64
import json
import re
from hashlib import sha256
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import User
from games import engine, services
from games.models import Game

pytestmark = pytest.mark.django_db


def play(game: Game, moves: int) -> None:
    """``moves`` decisions, each taken by whoever must act, as a heuristic
    bot would choose them, through the same service as the page."""
    bot = engine.make_bot("heuristic")
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = engine.from_dict(game.state)
        player = engine.next_actor(state)
        user = game.seats.get(number=player).user
        services.submit_action(
            public_id=game.public_id,
            user=user,
            action=bot.act(state, player).to_dict(),
            expected_version=game.version,
        )
    game.refresh_from_db()


def finish(game: Game, loser: User) -> None:
    game.refresh_from_db()
    services.resign(public_id=game.public_id, user=loser, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def _forms(name: str, text: str) -> dict[str, str]:
    """A hex value in the forms it could leave the server in."""
    raw = bytes.fromhex(text)
    return {
        f"{name} (hex)": text,
        f"{name} (HEX)": text.upper(),
        f"{name} (base64)": base64.b64encode(raw).decode(),
        f"{name} (base64url)": base64.urlsafe_b64encode(raw).decode().rstrip("="),
        f"{name} (integer)": str(int.from_bytes(raw, "big")),
    }


def forbidden(game: Game) -> dict[str, str]:
    """What must never leave the server while ``game`` runs, in the forms
    it could take: the secret, the players' seeds, the dice key made of
    them, the generator's state, the undrawn cards."""
    state = engine.from_dict(game.state)
    found = {
        **_forms("secret", game.secret),
        **_forms("dice key", game.dice_key),
        "generator state (stored state's field)": '"rng"',
        "decks (stored state's field)": '"decks"',
        "old seed column": str(game.seed),
    }
    for number, seed in enumerate(game.seeds or []):
        if seed:
            found.update(_forms(f"seed of seat {number}", seed))
    for d, deck in enumerate(state.decks):
        upcoming = deck[:6]
        found[f"deck {d} order (json)"] = json.dumps(upcoming)[1:-1]
        found[f"deck {d} order (compact)"] = ",".join(map(str, upcoming))
    return found


def assert_no_leak(name: str, body: bytes, game: Game) -> None:
    text = body.decode("utf-8", "replace")
    for what, needle in forbidden(game).items():
        assert needle not in text, f"{name} reveals the {what}"
    assert not re.search(r'"secret"\s*:\s*"', text), f"{name} has a secret field with a value"


ALICE_SEED = "a1" * 32
BOB_SEED = "b0" * 16


@pytest.fixture
def running(alice: User, bob: User, charlie: User, no_bot_tasks: Any) -> Game:
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0, seed=ALICE_SEED)
    services.join_game(
        public_id=game.public_id, user=bob, invite_token=game.invite_token, seed=BOB_SEED
    )
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    play(game, 40)
    assert game.status == Game.Status.ACTIVE
    return game


def test_a_started_game_has_a_256_bit_secret_and_its_commitment(running: Game) -> None:
    assert re.fullmatch(r"[0-9a-f]{64}", running.secret)
    assert running.commitment == sha256(bytes.fromhex(running.secret)).hexdigest()
    state = engine.from_dict(running.state)
    assert running.seeds == [ALICE_SEED, BOB_SEED]
    assert running.dice_key == engine.dice_key(running.secret, [ALICE_SEED, BOB_SEED])
    assert state.generator == engine.GEN_KEYED and state.secret == running.dice_key
    start = running.events.get(kind="start")
    assert start.payload == {"commitment": running.commitment}


def test_every_game_gets_its_own_secret(alice: User, bob: User, no_bot_tasks: Any) -> None:
    secrets = set()
    for _ in range(3):
        game = services.create_seated_game(humans=[alice, bob], bots=[], start=True)
        secrets.add(game.secret)
    assert len(secrets) == 3


@pytest.mark.parametrize("who", ["anonymous", "charlie", "alice"])
def test_the_game_page_shows_the_commitment_but_not_the_secret(
    running: Game, who: str, client: Client, request: Any
) -> None:
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    body = client.get(f"/games/{running.public_id}/").content.decode()
    assert running.commitment in body
    assert "How fair dice work here" in body
    assert running.secret not in body


def _surfaces(game: Game) -> list[str]:
    base = f"/games/{game.public_id}/"
    steps = game.version - 1
    return [
        base,
        base + "regions",
        base + "record.json",
        base + "replay/",
        *[f"{base}replay/?step={n}" for n in range(steps + 1)],
        *[f"{base}replay/?turn={n}" for n in range(0, 30)],
        "/",
        "/lobby/",
        "/watch/",
        "/leaderboard/",
        "/u/alice/",
        "/u/bob/",
        "/notifications/",
        "/fair-dice/",
    ]


@pytest.mark.parametrize("who", ["anonymous", "charlie", "alice", "bob"])
def test_nothing_served_while_the_game_runs_reveals_its_future(
    running: Game, who: str, client: Client, request: Any
) -> None:
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    fetched = 0
    for url in _surfaces(running):
        response = client.get(url, follow=True)
        if response.status_code == 200:
            fetched += 1
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert_no_leak(f"{url} as {who}", body, running)
    assert fetched >= len(_surfaces(running)) - 3  # /notifications/ and the like need a login


def test_the_record_of_a_running_game_has_the_moves_and_no_secret(
    running: Game, client: Client
) -> None:
    record = client.get(f"/games/{running.public_id}/record.json").json()
    assert record["generator"] == "blake2b-keyed"
    assert record["secret"] is None and "seed" not in record
    assert record["seeds"] is None
    assert record["commitment"] == running.commitment
    assert len(record["actions"]) == running.version - 1
    assert record["status"] == "active" and "final_state_sha256" not in record
    assert any(kind == "dice" for kind, _, _ in record["outcomes"])


def test_the_old_attack_of_replaying_a_leaked_seed_predicts_nothing(
    running: Game, client: Client
) -> None:
    """What a spectator did before: take the seed from record.json, replay
    the moves with the engine, and read the next throws off the generator."""
    record = client.get(f"/games/{running.public_id}/record.json").json()
    with pytest.raises(engine.CodecError, match="no secret"):
        engine.replay(record)
    page = client.get(f"/games/{running.public_id}/").content.decode()
    seen = [tuple(args) for kind, _, args in record["outcomes"] if kind == "dice"]
    assert len(seen) >= 10
    # Every number a viewer can find, tried as the seed, and the game's old
    # seed column itself (which a site before the keyed generator used):
    # none of them gives the throws that were actually seen.
    candidates = {int(n) for n in re.findall(r"\d{6,}", json.dumps(record) + page)}
    candidates.add(running.seed)
    for seed in candidates:
        guess = engine.new_game(record["ruleset"], record["players"], seed)
        throws: list[tuple[int, int]] = []
        log: list[Any] = []
        try:
            for payload in record["actions"]:
                engine.step(guess, engine.action_from_dict(payload), log)
        except engine.EngineError:
            continue  # a wrong seed soon makes the recorded moves illegal
        throws = [tuple(args) for kind, _, args in log if kind == "dice"]
        assert throws != seen, f"seed {seed} predicts the game"


def test_the_secret_is_shown_and_the_record_verifies_once_the_game_ends(
    running: Game, bob: User, client: Client, tmp_path: Path, capsys: Any
) -> None:
    finish(running, bob)
    page = client.get(f"/games/{running.public_id}/").content.decode()
    assert running.secret in page and running.commitment in page
    assert ALICE_SEED in page and BOB_SEED in page
    record = client.get(f"/games/{running.public_id}/record.json").json()
    assert record["secret"] == running.secret
    assert record["seeds"] == [ALICE_SEED, BOB_SEED]
    assert record["final_state_sha256"] == engine.state_digest(running.state)
    assert engine.to_dict(engine.replay(record)) == running.state
    result = engine.verify_record(record)
    assert result.ok, result.checks
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("verify_record", str(path))
    out = capsys.readouterr().out
    assert "The record verifies" in out and "FAIL" not in out


def test_verify_record_refuses_a_tampered_record(
    running: Game, bob: User, client: Client, tmp_path: Path, capsys: Any
) -> None:
    finish(running, bob)
    record = client.get(f"/games/{running.public_id}/record.json").json()
    dice = next(o for o in record["outcomes"] if o[0] == "dice")
    dice[2][0] = dice[2][0] % 6 + 1
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match="does NOT verify"):
        call_command("verify_record", str(path))
    assert "FAIL throws and cards" in capsys.readouterr().out


def test_verify_record_refuses_a_record_with_a_changed_seed(
    running: Game, bob: User, client: Client, tmp_path: Path, capsys: Any
) -> None:
    """A site that claimed other seeds than the players gave (or dropped
    one) is caught: the key they make draws other dice."""
    finish(running, bob)
    record = client.get(f"/games/{running.public_id}/record.json").json()
    record["seeds"][1] = "b1" + BOB_SEED[2:]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match="does NOT verify"):
        call_command("verify_record", str(path))
    out = capsys.readouterr().out
    assert "ok   commitment" in out and "FAIL" in out


def test_verify_record_refuses_a_record_without_the_seeds_the_game_used(
    running: Game, bob: User, client: Client
) -> None:
    finish(running, bob)
    record = client.get(f"/games/{running.public_id}/record.json").json()
    del record["seeds"]  # passed off as a game keyed by the secret alone
    assert not engine.verify_record(record).ok


def test_verify_record_refuses_a_running_games_record(
    running: Game, client: Client, tmp_path: Path, capsys: Any
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(client.get(f"/games/{running.public_id}/record.json").content)
    with pytest.raises(CommandError):
        call_command("verify_record", str(path))
    assert "still running" in capsys.readouterr().out


def test_verify_record_says_clearly_when_the_file_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("[1, 2")
    with pytest.raises(CommandError):
        call_command("verify_record", str(path))


def test_the_fair_dice_page_explains_commit_and_reveal(client: Client) -> None:
    body = client.get("/fair-dice/").content.decode()
    assert "How fair dice work here" in body and "commitment" in body
