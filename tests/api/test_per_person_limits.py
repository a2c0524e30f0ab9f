"""Limits are per person, not per door (issue 32): games created, trade
offers, joins and challenges count in one counter per account whether they
come through the pages or the API, and any token of the account; a
withdrawn challenge takes its notice with it; an account's tokens are capped."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from api import tokens
from common.env import env_rates
from games import engine, services
from games.models import Challenge, Game
from notifications.live import unread_count
from notifications.models import Notification
from tests.api.conftest import Api, api_for
from tests.games.conftest import edit_state

__all__ = ["edit_state"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_bot_tasks")]

CREATE = {"preset": "us-2003", "max_seats": "4", "turn_seconds": "3600", "visibility": "public"}
OFFER_FORM = {"target": "1", "take_props": "39", "give_cash": "317", "take_cash": ""}
OFFER_API = {"kind": "propose_trade", "target": 1, "terms": {"take_props": [39], "give_cash": 317}}


def limit(settings: Any, scope: str, rates: str) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, scope: env_rates("TEST", rates, {"user", "ip"})}


def page_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def assert_problem_429(response: Any, words: str) -> None:
    assert response.status_code == 429, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    assert int(response["Retry-After"]) >= 1
    assert words in response.json()["detail"]


def assert_page_429(response: Any, words: str) -> None:
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert words in response.content.decode()


# --- games created -------------------------------------------------------------------


def test_the_eleventh_game_is_refused_through_the_api_after_ten_mixed(
    settings: Any, alice: User
) -> None:
    limit(settings, "create", "10/1h/user,100/1h/ip")
    page, api = page_for(alice), api_for(alice)
    for n in range(10):
        if n % 2:
            assert page.post("/lobby/create", CREATE).status_code == 302
        else:
            assert api.post("/games", {"seats": 2}).status_code == 201
    assert_problem_429(api.post("/games", {"seats": 2}), "created too many games")
    # A second token of the same account has no budget of its own.
    assert_problem_429(api_for(alice).post("/games", {"seats": 2}), "created too many games")
    assert_page_429(page.post("/lobby/create", CREATE), "You have created too many games")
    assert Game.objects.filter(host=alice).count() == 10


def test_games_created_through_the_api_fill_the_pages_count(
    settings: Any, alice: User, bob: User
) -> None:
    limit(settings, "create", "10/1h/user,100/1h/ip")
    api = api_for(alice)
    for _ in range(10):
        assert api.post("/games", {"seats": 2}).status_code == 201
    assert_page_429(page_for(alice).post("/lobby/create", CREATE), "created too many games")
    # Another person is not affected.
    assert api_for(bob).post("/games", {"seats": 2}).status_code == 201


# --- trade offers --------------------------------------------------------------------


@pytest.fixture
def alice_first(duel: Game, edit_state: Any) -> Game:
    def position(s: engine.State) -> engine.State:
        return engine.setup(s, owners={1: 0, 39: 1}, turn=0)

    edit_state(duel, position)
    return duel


def _version(game: Game) -> int:
    game.refresh_from_db()
    return game.version


def _withdraw_offers(game: Game, alice: User) -> None:
    game.refresh_from_db()
    for offer in engine.offers(engine.from_dict(game.state)):
        services.submit_action(
            public_id=game.public_id,
            user=alice,
            action={"kind": engine.WITHDRAW_TRADE, "target": offer.id},
            expected_version=_version(game),
        )


def _offer_by_page(page: Client, game: Game) -> Any:
    data = {"kind": engine.PROPOSE_TRADE, "expected_version": _version(game), **OFFER_FORM}
    return page.post(f"/games/{game.public_id}/act", data, HTTP_HX_REQUEST="true")


def _offer_by_api(api: Api, game: Game) -> Any:
    body = {"action": OFFER_API, "expected_version": _version(game)}
    return api.post(f"/games/{game.public_id}/actions", body)


def test_the_eleventh_trade_offer_is_refused_whichever_door_after_ten_mixed(
    settings: Any, alice_first: Game, alice: User
) -> None:
    limit(settings, "trade", "10/1m/user,100/1m/ip")
    page, api = page_for(alice), api_for(alice)
    for n in range(10):
        answer = _offer_by_page(page, alice_first) if n % 2 else _offer_by_api(api, alice_first)
        assert answer.status_code == 200, answer.content
        _withdraw_offers(alice_first, alice)
    version = _version(alice_first)
    assert_problem_429(_offer_by_api(api, alice_first), "proposing trades too quickly")
    assert_page_429(_offer_by_page(page, alice_first), "You are proposing trades too quickly")
    assert _version(alice_first) == version  # nothing was offered
    assert not engine.offers(engine.from_dict(alice_first.state))
    # Other moves are not trade offers.
    roll = {"action": {"kind": engine.ROLL}, "expected_version": version}
    assert api.post(f"/games/{alice_first.public_id}/actions", roll).status_code == 200


# --- joins ---------------------------------------------------------------------------


def test_joins_count_once_for_the_page_and_the_api(settings: Any, alice: User, bob: User) -> None:
    limit(settings, "join", "2/10m/user,100/10m/ip")
    games = [services.create_game(host=alice, max_seats=2) for _ in range(3)]
    assert page_for(bob).post(f"/games/{games[0].public_id}/join").status_code == 302
    api = api_for(bob)
    assert api.post(f"/games/{games[1].public_id}/join").status_code == 200
    assert_problem_429(api.post(f"/games/{games[2].public_id}/join"), "joined too many games")
    assert not games[2].seats.filter(user=bob).exists()


def test_accepting_a_challenge_takes_a_seat_and_counts_as_a_join(
    settings: Any, alice: User, bob: User
) -> None:
    limit(settings, "join", "1/10m/user,100/10m/ip")
    open_game = services.create_game(host=alice, max_seats=2)
    assert api_for(bob).post(f"/games/{open_game.public_id}/join").status_code == 200
    game = services.create_game(host=alice, max_seats=2)
    made = services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    on_page = page_for(bob).post(f"/challenges/{made.public_id}/accept")
    assert_page_429(on_page, "You have joined too many games recently")
    by_api = api_for(bob).post(f"/challenges/{made.public_id}/accept")
    assert_problem_429(by_api, "joined too many games")
    assert not game.seats.filter(user=bob).exists()
    made.refresh_from_db()
    assert made.status == Challenge.Status.PENDING


# --- challenges ----------------------------------------------------------------------


def test_challenges_are_limited_per_account_through_page_and_api(
    settings: Any, alice: User, bob: User, charlie: User
) -> None:
    limit(settings, "challenge", "2/10m/user,100/10m/ip")
    game = services.create_game(host=alice, max_seats=4)
    page, api = page_for(alice), api_for(alice)
    answer = page.post(f"/games/{game.public_id}/challenge", {"username": "bob"})
    assert answer.status_code == 302
    assert api.post(f"/games/{game.public_id}/challenges", {"username": "charlie"}).status_code == (
        201
    )
    User.objects.create_user("dora", "dora@example.com", "pw-dora-123")
    refused = api.post(f"/games/{game.public_id}/challenges", {"username": "dora"})
    assert_problem_429(refused, "sending challenges too quickly")
    on_page = page.post(f"/games/{game.public_id}/challenge", {"username": "dora"})
    assert_page_429(on_page, "You are sending challenges too quickly")
    assert not Challenge.objects.filter(challenged__username="dora").exists()


def test_a_challenge_and_withdraw_loop_leaves_no_notice_behind(
    settings: Any, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    limit(settings, "challenge", "40/10m/user,100/10m/ip")
    game = services.create_game(host=alice, max_seats=2)
    api, page = api_for(alice), page_for(alice)
    for n in range(40):
        with django_capture_on_commit_callbacks(execute=True):
            made = api.post(f"/games/{game.public_id}/challenges", {"username": "bob"})
        assert made.status_code == 201, made.content
        challenge_id = made.json()["id"]
        assert Notification.objects.filter(dedupe_key=f"challenge:{challenge_id}").exists()
        with django_capture_on_commit_callbacks(execute=True):
            if n % 2:
                gone = api.post(f"/challenges/{challenge_id}/withdraw")
                assert gone.status_code == 200
            else:
                gone = page.post(f"/challenges/{challenge_id}/withdraw")
                assert gone.status_code == 302
    assert not Notification.objects.filter(user=bob).exists()
    assert unread_count(bob) == 0


def test_a_notice_told_after_its_challenge_was_withdrawn_is_not_stored(
    alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    """The race: the withdrawal commits between the challenge's commit and
    the notifier's insert. The notifier checks the challenge first."""
    game = services.create_game(host=alice, max_seats=2)
    with django_capture_on_commit_callbacks(execute=False) as told:
        made = services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw_challenge(challenge_id=made.public_id, user=alice)
    for callback in told:  # the challenge's notifier, late
        callback()
    assert not Notification.objects.filter(user=bob).exists()


def test_a_withdrawal_pushes_the_new_unread_count(
    alice: User, bob: User, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    from notifications import live

    pushed: list[int] = []
    monkeypatch.setattr(live, "push_unread", lambda pk: pushed.append(pk) or True)
    game = services.create_game(host=alice, max_seats=2)
    with django_capture_on_commit_callbacks(execute=True):
        made = services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    assert unread_count(bob) == 1 and pushed == [bob.pk]
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw_challenge(challenge_id=made.public_id, user=alice)
    assert unread_count(bob) == 0 and pushed == [bob.pk, bob.pk]


# --- tokens --------------------------------------------------------------------------


def test_an_account_holds_at_most_its_cap_of_live_tokens(settings: Any, alice: User) -> None:
    settings.API_TOKENS_PER_ACCOUNT = 3
    made = [tokens.issue(alice, scopes=["read"])[0] for _ in range(3)]
    with pytest.raises(tokens.TokenError, match="the most an account may have"):
        tokens.issue(alice, scopes=["read"])
    page = page_for(alice)
    refused = page.post("/settings/api-tokens/new", {"name": "one more", "scopes": ["read"]})
    assert refused.status_code == 302
    shown = page.get(refused["Location"]).content.decode()
    assert "You already have 3 API tokens, the most an account may have" in shown
    assert alice.api_tokens.count() == 3  # type: ignore[attr-defined]
    # A revoked token frees its place.
    assert tokens.revoke(alice, made[0].pk)
    answer = page.post("/settings/api-tokens/new", {"name": "one more", "scopes": ["read"]})
    assert answer.status_code == 200 and "mnp_" in answer.content.decode()
