"""An Idempotency-Key makes a retry safe, and concurrent identical POSTs
apply once."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections

from accounts.models import User
from api.models import IdempotentAnswer
from games import engine, services
from games.models import Game
from tests.api.conftest import Api, api_for


def alices_turn(alice: User, bob: User) -> Game:
    """A started duel where Alice is to roll."""
    for _ in range(20):
        game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0, capped=False)
        services.join_game(public_id=game.public_id, user=bob)
        services.start_game(public_id=game.public_id, user=alice)
        game.refresh_from_db()
        if engine.next_actor(engine.from_dict(game.state)) == 0:
            return game
    raise AssertionError("Alice never went first")


def roll(api: Api, game: Game, key: str | None = None) -> Any:
    return api.post(
        f"/games/{game.public_id}/actions",
        {"action": {"kind": "roll"}, "expected_version": game.version},
        headers={"Idempotency-Key": key} if key else None,
    )


def test_a_retry_with_the_same_key_gets_the_first_answer_and_applies_nothing(
    alice: User, bob: User, no_bot_tasks: Any
) -> None:
    game = alices_turn(alice, bob)
    api = api_for(alice)
    first = roll(api, game, "k-1")
    assert first.status_code == 200, first.content
    applied = Game.objects.get(pk=game.pk).version
    assert applied > game.version
    retry = roll(api, game, "k-1")
    assert retry.status_code == 200
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert Game.objects.get(pk=game.pk).version == applied
    # Without the key, the same post is stale.
    assert roll(api, game).status_code == 409


def test_a_key_used_for_another_request_is_refused(
    alice: User, bob: User, no_bot_tasks: Any
) -> None:
    game = alices_turn(alice, bob)
    api = api_for(alice)
    assert roll(api, game, "k-2").status_code == 200
    other = api.post(
        f"/games/{game.public_id}/actions",
        {"action": {"kind": "end_turn"}, "expected_version": game.version},
        headers={"Idempotency-Key": "k-2"},
    )
    assert other.status_code == 422
    assert other.json()["type"].endswith("idempotency-key-reused")


def test_a_key_reused_at_the_current_version_applies_nothing(
    alice: User, bob: User, no_bot_tasks: Any
) -> None:
    # Past the game's version check, the key's unique constraint refuses it
    # and its move rolls back.
    game = alices_turn(alice, bob)
    api = api_for(alice)
    assert roll(api, game, "k-4").status_code == 200
    game.refresh_from_db()
    next_move = api.get(f"/games/{game.public_id}").json()["legal_actions"][0]
    again = api.post(
        f"/games/{game.public_id}/actions",
        {"action": next_move, "expected_version": game.version},
        headers={"Idempotency-Key": "k-4"},
    )
    assert again.status_code == 422, again.content
    assert again.json()["type"].endswith("idempotency-key-reused")
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_refused_move_frees_its_key_for_a_corrected_retry(
    alice: User, bob: User, no_bot_tasks: Any
) -> None:
    game = alices_turn(alice, bob)
    api = api_for(alice)
    stale = api.post(
        f"/games/{game.public_id}/actions",
        {"action": {"kind": "roll"}, "expected_version": game.version + 5},
        headers={"Idempotency-Key": "k-3"},
    )
    assert stale.status_code == 409
    assert not IdempotentAnswer.objects.filter(key="k-3").exists()


def test_keys_belong_to_their_user(alice: User, bob: User, no_bot_tasks: Any) -> None:
    game = alices_turn(alice, bob)
    assert roll(api_for(alice), game, "shared").status_code == 200
    # Bob's same key is his own: his roll is out of turn, not a replay.
    assert roll(api_for(bob), game, "shared").status_code in (403, 409)


def race(api: Api, game: Game, key: str | None, n: int = 20) -> list[Any]:
    barrier = threading.Barrier(n)
    answers: list[Any] = [None] * n

    def post(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = roll(api, game, key)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(a is not None for a in answers)
    return answers


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_identical_posts_give_one_success_and_409s(
    no_bot_tasks: Any,
) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    game = alices_turn(alice, bob)
    answers = race(api_for(alice), game, key=None)
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] + [409] * 19
    after = Game.objects.get(pk=game.pk)
    winner = next(a for a in answers if a.status_code == 200)
    assert after.version == winner.json()["version"]


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_posts_with_one_key_apply_once(no_bot_tasks: Any) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    game = alices_turn(alice, bob)
    answers = race(api_for(alice), game, key="same-key")
    fresh = [a for a in answers if a.status_code == 200 and not a.has_header("Idempotent-Replayed")]
    replays = [a for a in answers if a.has_header("Idempotent-Replayed")]
    refused = [a for a in answers if a.status_code == 409]
    assert len(fresh) == 1
    assert len(fresh) + len(replays) + len(refused) == 20
    assert all(r.json() == fresh[0].json() for r in replays)
    after = Game.objects.get(pk=game.pk)
    assert after.version == fresh[0].json()["version"]
    assert IdempotentAnswer.objects.filter(key="same-key").count() == 1
