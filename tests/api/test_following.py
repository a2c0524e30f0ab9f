"""``/api/v1/me/following`` and ``/api/v1/me/blocks``: the profile's
follow and block buttons, for a token."""

from __future__ import annotations

import json
from typing import Any

import pytest

from accounts.models import User
from people import services
from people.models import Block, Follow
from tests.api.conftest import Api, api_for

pytestmark = pytest.mark.django_db


def _put(api: Api, path: str, body: Any = None) -> Any:
    return api.client.put(
        f"/api/v1{path}",
        data=json.dumps(body) if body is not None else "",
        content_type="application/json",
        headers=api.headers(),
    )


def _delete(api: Api, path: str) -> Any:
    return api.client.delete(f"/api/v1{path}", headers=api.headers())


def test_lists_who_you_follow_with_bell_and_friend_flag(
    alice: User, bob: User, charlie: User
) -> None:
    services.do_follow(alice, bob)
    services.do_set_bell(alice, charlie, on=True)
    services.do_follow(charlie, alice)
    answer = api_for(alice).get("/me/following")
    assert answer.status_code == 200
    assert answer.json()["following"] == [
        {"username": "charlie", "name": charlie.public_name, "bell": True, "friend": True},
        {"username": "bob", "name": bob.public_name, "bell": False, "friend": False},
    ]


def test_put_follows_once_and_sets_the_bell(alice: User, bob: User) -> None:
    api = api_for(alice)
    for _ in range(2):  # idempotent
        answer = _put(api, "/me/following/bob")
        assert answer.status_code == 200
        assert answer.json() == {
            "username": "bob",
            "name": bob.public_name,
            "bell": False,
            "friend": False,
        }
    assert Follow.objects.filter(follower=alice, followed=bob).count() == 1
    answer = _put(api, "/me/following/bob", {"bell": True})
    assert answer.json()["bell"] is True
    assert Follow.objects.get(follower=alice, followed=bob).bell is True


def test_delete_unfollows_and_a_second_delete_answers_the_same(alice: User, bob: User) -> None:
    services.do_follow(alice, bob)
    api = api_for(alice)
    for _ in range(2):
        answer = _delete(api, "/me/following/bob")
        assert answer.status_code == 204 and answer.content == b""
    assert not Follow.objects.exists()


def test_block_and_unblock_are_idempotent(alice: User, bob: User) -> None:
    services.do_follow(alice, bob)
    api = api_for(alice)
    for _ in range(2):
        assert _put(api, "/me/blocks/bob").status_code == 204
    assert Block.objects.filter(blocker=alice, blocked=bob).count() == 1
    assert not Follow.objects.filter(follower=alice, followed=bob).exists()
    assert api.get("/me/blocks").json() == {"blocks": [{"username": "bob"}]}
    for _ in range(2):
        assert _delete(api, "/me/blocks/bob").status_code == 204
    assert not Block.objects.exists()


@pytest.mark.parametrize(
    "call",
    [
        lambda api: _put(api, "/me/following/nobody"),
        lambda api: _delete(api, "/me/following/nobody"),
        lambda api: _put(api, "/me/blocks/nobody"),
        lambda api: _delete(api, "/me/blocks/nobody"),
    ],
)
def test_an_unknown_person_is_a_404_problem(alice: User, call: Any) -> None:
    answer = call(api_for(alice))
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["detail"] == "There is no such player."


def test_following_or_blocking_yourself_is_a_409_problem(alice: User) -> None:
    api = api_for(alice)
    for answer in (_put(api, "/me/following/alice"), _put(api, "/me/blocks/alice")):
        assert answer.status_code == 409
        assert answer.json()["detail"] == "That is you."
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_a_bad_bell_is_a_problem_and_changes_nothing(alice: User, bob: User) -> None:
    answer = _put(api_for(alice), "/me/following/bob", {"bell": "sometimes"})
    assert answer.status_code in (400, 422)
    assert answer["Content-Type"] == "application/problem+json"
    assert not Follow.objects.exists()


def test_writes_need_the_play_scope_and_reads_the_read_scope(alice: User, bob: User) -> None:
    reader = api_for(alice, "read")
    for answer in (
        _put(reader, "/me/following/bob"),
        _delete(reader, "/me/following/bob"),
        _put(reader, "/me/blocks/bob"),
        _delete(reader, "/me/blocks/bob"),
    ):
        assert answer.status_code == 403
        assert answer.json()["type"].endswith("scope")
    assert not Follow.objects.exists() and not Block.objects.exists()
    assert api_for(alice, "play").get("/me/following").status_code == 403
    assert Api(None).get("/me/following").status_code == 401
    assert _put(Api(None), "/me/blocks/bob").status_code == 401
