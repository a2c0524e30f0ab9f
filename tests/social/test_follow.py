from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from people import services
from people.models import Block, Follow, Mute

pytestmark = pytest.mark.django_db

VERBS = ["follow", "unfollow", "block", "unblock", "mute", "unmute", "bell"]


@pytest.mark.parametrize("verb", VERBS)
def test_anonymous_post_is_sent_to_log_in(client: Client, bob: User, verb: str) -> None:
    response = client.post(f"/u/bob/{verb}", {"on": "1"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not Follow.objects.exists() and not Block.objects.exists()


@pytest.mark.parametrize("verb", VERBS)
def test_get_is_refused_with_405(client: Client, alice: User, bob: User, verb: str) -> None:
    client.force_login(alice)
    assert client.get(f"/u/bob/{verb}").status_code == 405


@pytest.mark.parametrize("verb", VERBS)
def test_unknown_person_is_404(client: Client, alice: User, verb: str) -> None:
    client.force_login(alice)
    assert client.post(f"/u/nobody/{verb}", {"on": "1"}).status_code == 404


def test_follow_then_unfollow_goes_back_to_the_profile(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(alice)
    response = client.post("/u/bob/follow")
    assert response.status_code == 302 and response["Location"] == "/u/bob/"
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    client.post("/u/bob/follow")  # a double submit changes nothing
    assert Follow.objects.filter(follower=alice, followed=bob).count() == 1
    client.post("/u/bob/unfollow")
    assert not Follow.objects.exists()


def test_goes_back_to_a_local_next_but_never_to_another_site(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(alice)
    response = client.post("/u/bob/mute", {"next": "/games/abc/"})
    assert response["Location"] == "/games/abc/"
    for outside in (
        "https://evil.example/",
        "//evil.example/x",
        "/\\evil.example/x",
        "javascript:alert(1)",
    ):
        response = client.post("/u/bob/unmute", {"next": outside})
        assert response["Location"] == "/u/bob/"


def test_following_yourself_is_refused_with_a_clear_message(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/u/alice/follow", follow=True)
    assert "That is you." in response.content.decode()
    assert not Follow.objects.exists()


def test_block_and_mute_from_the_profile(client: Client, alice: User, bob: User) -> None:
    client.force_login(alice)
    services.do_follow(alice, bob)
    client.post("/u/bob/block")
    client.post("/u/bob/mute")
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert Mute.objects.filter(muter=alice, muted=bob).exists()
    assert not Follow.objects.filter(follower=alice, followed=bob).exists()
    client.post("/u/bob/unblock")
    client.post("/u/bob/unmute")
    assert not Block.objects.exists() and not Mute.objects.exists()


def test_bell_turns_on_and_off_and_refuses_other_values(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(alice)
    client.post("/u/bob/bell", {"on": "1"})
    assert Follow.objects.get(follower=alice, followed=bob).bell is True
    response = client.post("/u/bob/bell", {"on": "maybe"}, follow=True)
    assert "Choose whether to be told" in response.content.decode()
    assert Follow.objects.get(follower=alice, followed=bob).bell is True
    client.post("/u/bob/bell", {"on": "0"})
    assert Follow.objects.get(follower=alice, followed=bob).bell is False


def test_htmx_caller_gets_the_refreshed_buttons(client: Client, alice: User, bob: User) -> None:
    client.force_login(alice)
    response = client.post("/u/bob/follow", {"next": "/u/bob/"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="relation-buttons"' in body
    assert "Unfollow" in body and "Tell me when they start a game" in body
    assert "You follow bob." in body
    assert "<html" not in body


def test_htmx_refusal_shows_the_message_in_the_fragment(client: Client, alice: User) -> None:
    client.force_login(alice)
    bob = User.objects.create_user("bob2", "b2@example.com", "x-correct-horse-1")
    response = client.post("/u/bob2/bell", {"on": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert "Choose whether to be told" in response.content.decode()
    assert not Follow.objects.filter(followed=bob).exists()


def test_profile_shows_the_buttons_to_a_signed_in_viewer(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(alice)
    body = client.get("/u/bob/").content.decode()
    assert 'action="/u/bob/follow"' in body and 'action="/u/bob/block"' in body
    services.do_follow(alice, bob)
    body = client.get("/u/bob/").content.decode()
    assert 'action="/u/bob/unfollow"' in body and 'action="/u/bob/bell"' in body
    assert "Friends: you follow each other" not in body
    services.do_follow(bob, alice)
    assert "Friends: you follow each other" in client.get("/u/bob/").content.decode()


def test_own_profile_and_anonymous_viewers_get_no_buttons(
    client: Client, alice: User, bob: User
) -> None:
    assert 'action="/u/bob/follow"' not in client.get("/u/bob/").content.decode()
    client.force_login(bob)
    assert 'action="/u/bob/follow"' not in client.get("/u/bob/").content.decode()


def test_follower_counts_are_shown_only_to_the_account_itself(
    client: Client, alice: User, bob: User, carol: User
) -> None:
    services.do_follow(alice, bob)
    services.do_follow(carol, bob)
    client.force_login(bob)
    assert "2 followers" in client.get("/u/bob/").content.decode()
    for viewer in (alice, carol):
        client.force_login(viewer)
        body = client.get("/u/bob/").content.decode()
        assert "followers" not in body and "2 follower" not in body
    client.logout()
    assert "followers" not in client.get("/u/bob/").content.decode()


def test_the_blocked_person_cannot_tell_from_the_profile(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(bob)
    before = _without_tokens(client.get("/u/alice/").content.decode())
    services.do_block(alice, bob)
    after = _without_tokens(client.get("/u/alice/").content.decode())
    assert after == before


def _without_tokens(body: str) -> str:
    import re

    return re.sub(r"[A-Za-z0-9]{64}", "", body)
