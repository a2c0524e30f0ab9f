"""Challenges on the site: the host challenges from the game's lobby page,
the challenged answers on the challenge's page, which nobody else sees."""

from __future__ import annotations

from django.test import Client

from accounts.models import User
from games import services
from games.models import Challenge


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_host_challenges_and_the_challenged_accepts_a_private_game(
    alice: User, bob: User
) -> None:
    game = services.create_game(host=alice, max_seats=2, is_public=False)
    host, guest = _client(alice), _client(bob)
    lobby = host.get(f"/games/{game.public_id}/")
    assert 'name="username"' in lobby.content.decode()
    sent = host.post(f"/games/{game.public_id}/challenge", {"username": "bob"}, follow=True)
    assert "bob has been challenged." in sent.content.decode()
    made = Challenge.objects.get(game=game)
    assert f"/challenges/{made.public_id}/" in sent.content.decode()  # listed while it waits
    # The private game's page does not admit bob yet; the challenge's does,
    # and his lobby lists it.
    assert guest.get(f"/games/{game.public_id}/").status_code == 404
    assert f"/challenges/{made.public_id}/" in guest.get("/lobby/").content.decode()
    page = guest.get(f"/challenges/{made.public_id}/").content.decode()
    assert "alice challenges you" in page and "Accept and take a seat" in page
    accepted = guest.post(f"/challenges/{made.public_id}/accept", follow=True)
    assert accepted.redirect_chain[-1][0] == f"/games/{game.public_id}/"
    assert game.seats.filter(user=bob).exists()


def test_a_declined_challenge_is_shown_as_declined_and_cannot_be_answered_again(
    alice: User, bob: User
) -> None:
    game = services.create_game(host=alice, max_seats=2)
    made = services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    guest = _client(bob)
    guest.post(f"/challenges/{made.public_id}/decline")
    page = guest.get(f"/challenges/{made.public_id}/").content.decode()
    assert "Declined" in page and "Accept and take a seat" not in page
    again = guest.post(f"/challenges/{made.public_id}/accept", follow=True)
    assert "already declined" in again.content.decode()
    assert not game.seats.filter(user=bob).exists()


def test_nobody_else_sees_or_answers_a_challenge(alice: User, bob: User, charlie: User) -> None:
    game = services.create_game(host=alice, max_seats=2)
    made = services.challenge_player(public_id=game.public_id, user=alice, username="bob")
    stranger = _client(charlie)
    assert stranger.get(f"/challenges/{made.public_id}/").status_code == 404
    assert stranger.post(f"/challenges/{made.public_id}/accept").status_code == 404
    assert _client(bob).post(f"/challenges/{made.public_id}/nonsense").status_code == 404
    refused = _client(charlie).post(
        f"/games/{game.public_id}/challenge", {"username": "bob"}, follow=True
    )
    assert "Only the host can do that." in refused.content.decode()
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.PENDING
