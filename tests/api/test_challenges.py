"""Challenges through the API: a host challenges a person or a bot account;
the challenged side lists, accepts or declines; nobody else sees them."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games import services
from games.models import Challenge, Game
from notifications.models import Notification
from tests.api.conftest import Api, api_for


def _lobby(api: Api, **body: Any) -> str:
    made = api.post("/games", {"seats": 2, "public": False, **body})
    assert made.status_code == 201, made.content
    return str(made.json()["id"])


def test_a_challenged_player_accepts_and_takes_a_seat_in_a_private_game(
    alice_api: Api, bob_api: Api, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    game_id = _lobby(alice_api)
    with django_capture_on_commit_callbacks(execute=True):  # the notices follow the commit
        sent = alice_api.post(f"/games/{game_id}/challenges", {"username": "bob"})
    assert sent.status_code == 201, sent.content
    challenge = sent.json()
    assert (challenge["challenger"], challenge["challenged"], challenge["status"]) == (
        "alice", "bob", "pending"
    )  # fmt: skip
    assert [c["id"] for c in bob_api.get("/challenges").json()["incoming"]] == [challenge["id"]]
    assert [c["id"] for c in alice_api.get("/challenges").json()["outgoing"]] == [challenge["id"]]
    note = Notification.objects.get(user=bob, kind="challenge")
    assert "alice challenges you" in note.text and note.url == f"/challenges/{challenge['id']}/"
    with django_capture_on_commit_callbacks(execute=True):
        accepted = bob_api.post(f"/challenges/{challenge['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    view = bob_api.get(f"/games/{game_id}").json()
    assert view["your_seat"] is not None
    assert (
        Notification.objects.filter(kind="challenge_answered", text__contains="accepted").count()
        == 1
    )
    again = bob_api.post(f"/challenges/{challenge['id']}/decline")
    assert again.status_code == 409 and "already accepted" in again.json()["detail"]
    assert bob_api.get("/challenges").json()["incoming"] == []


def test_a_declined_challenge_seats_nobody_and_tells_the_host(
    alice_api: Api, bob_api: Api, alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    game_id = _lobby(alice_api)
    challenge = alice_api.post(f"/games/{game_id}/challenges", {"username": "bob"}).json()
    with django_capture_on_commit_callbacks(execute=True):
        declined = bob_api.post(f"/challenges/{challenge['id']}/decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert Game.objects.get(public_id=game_id).seats.count() == 1
    told = Notification.objects.get(user=alice, kind="challenge_answered")
    assert "bob declined" in told.text


def test_only_the_challenged_answers_and_only_the_host_challenges(
    alice_api: Api, bob_api: Api, charlie_api: Api
) -> None:
    game_id = _lobby(alice_api)
    # Someone else's private game does not exist for them.
    refused = charlie_api.post(f"/games/{game_id}/challenges", {"username": "bob"})
    assert refused.status_code == 404
    challenge = alice_api.post(f"/games/{game_id}/challenges", {"username": "bob"}).json()
    for api, answer in [(charlie_api, "accept"), (alice_api, "accept"), (bob_api, "withdraw")]:
        answered = api.post(f"/challenges/{challenge['id']}/{answer}")
        assert answered.status_code == 404, (answer, answered.content)
        assert answered.json()["detail"] == "There is no such challenge."
    assert Challenge.objects.get(public_id=challenge["id"]).status == "pending"
    withdrawn = alice_api.post(f"/challenges/{challenge['id']}/withdraw")
    assert withdrawn.json()["status"] == "cancelled"
    assert bob_api.get("/challenges").json()["incoming"] == []


def test_bad_challenges_are_refused_with_a_reason(alice_api: Api, bob_api: Api) -> None:
    game_id = _lobby(alice_api)
    cases = [
        ("nobody-here", 404, "No player is called"),
        ("alice", 409, "cannot challenge yourself"),
    ]
    for username, status, words in cases:
        answered = alice_api.post(f"/games/{game_id}/challenges", {"username": username})
        assert answered.status_code == status and words in answered.json()["detail"], username
    assert alice_api.post(f"/games/{game_id}/challenges", {"username": "bob"}).status_code == 201
    twice = alice_api.post(f"/games/{game_id}/challenges", {"username": "bob"})
    assert twice.status_code == 409 and "already been challenged" in twice.json()["detail"]
    empty = alice_api.post(f"/games/{game_id}/challenges", {"username": ""})
    assert empty.status_code == 422


def test_a_bot_account_is_challenged_only_to_games_that_allow_bot_accounts(
    alice_api: Api, bob: User
) -> None:
    from accounts.bot import set_bot_account

    set_bot_account(bob, True)
    closed = _lobby(alice_api)
    refused = alice_api.post(f"/games/{closed}/challenges", {"username": "bob"})
    assert refused.status_code == 403 and "bob cannot take a seat" in refused.json()["detail"]
    open_to_bots = _lobby(alice_api, allow_bot_accounts=True)
    made = alice_api.post(f"/games/{open_to_bots}/challenges", {"username": "bob"})
    assert made.status_code == 201, made.content
    accepted = api_for(bob, "bot,read").post(f"/challenges/{made.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.content


def test_a_challenge_lapses_when_its_game_starts(
    alice: User, bob: User, charlie: User, bob_api: Api
) -> None:
    game = services.create_game(host=alice, max_seats=3)
    made = services.challenge_player(public_id=game.public_id, user=alice, username="charlie")
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    answered = api_for(charlie).post(f"/challenges/{made.public_id}/accept")
    assert answered.status_code == 409 and "lapsed" in answered.json()["detail"]
    assert api_for(charlie).get("/challenges").json()["incoming"] == []


def test_a_host_has_at_most_twenty_challenges_waiting(alice: User, alice_api: Api) -> None:
    from games.services.challenges import MAX_OPEN_CHALLENGES

    game = services.create_game(host=alice, max_seats=8, capped=False)
    for i in range(MAX_OPEN_CHALLENGES):
        User.objects.create_user(f"p{i}", f"p{i}@example.com", None)
        services.challenge_player(public_id=game.public_id, user=alice, username=f"p{i}")
    User.objects.create_user("late", "late@example.com", None)
    refused = alice_api.post(f"/games/{game.public_id}/challenges", {"username": "late"})
    assert refused.status_code == 409 and "withdraw some" in refused.json()["detail"]
    first = Challenge.objects.filter(challenger=alice).first()
    assert first is not None
    services.withdraw_challenge(challenge_id=first.public_id, user=alice)
    assert (
        alice_api.post(f"/games/{game.public_id}/challenges", {"username": "late"}).status_code
        == 201
    )
