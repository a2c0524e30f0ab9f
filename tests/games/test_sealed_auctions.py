"""Sealed-bid auctions on the site (issue #17): the winner, ties, closing at
once, and nobody seeing a bid before the close (pages, log, replay record)."""

from __future__ import annotations

import re
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.models import Game, GameEvent
from live import groups
from tests.conftest import setup_writes
from tests.games.conftest import _user
from tests.live.conftest import pushes_of

pytestmark = pytest.mark.django_db


def _v(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def sealed_game(*users: Any) -> Game:
    game = services.create_game(
        host=users[0], max_seats=len(users), bot_delay_ms=0,
        switches={"auction_kind": "sealed"},
    )  # fmt: skip
    for user in users[1:]:
        services.join_game(public_id=game.public_id, user=user, invite_token=game.invite_token)
    services.start_game(public_id=game.public_id, user=users[0])
    game.refresh_from_db()
    return game


def open_auction(game: Game, users: list[Any]) -> int:
    """The turn player lands on Baltic Avenue and declines: returns their seat."""
    state = engine.from_dict(game.state)
    state = engine.setup(state, positions={p: 0 for p in range(state.n)}, turn=0)
    engine.force_dice(state, (1, 2))
    game.state = engine.to_dict(state)
    with setup_writes("a scripted position"):
        game.save(update_fields=["state"])
    mover = state.turn
    user = users[mover]
    services.submit_action(public_id=game.public_id, user=user, action={"kind": "roll"},
                           expected_version=_v(game))  # fmt: skip
    services.submit_action(public_id=game.public_id, user=user, action={"kind": "decline"},
                           expected_version=_v(game))  # fmt: skip
    game.refresh_from_db()
    au = engine.auction_view(engine.from_dict(game.state))
    assert au is not None and au.sealed
    return mover


def bid(game: Game, user: Any, amount: int) -> None:
    action = {"kind": "bid", "amount": amount} if amount else {"kind": "pass_bid"}
    services.submit_action(public_id=game.public_id, user=user, action=action,
                           expected_version=_v(game))  # fmt: skip


def page(game: Game, user: Any | None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("game_detail", args=[game.public_id]))
    assert response.status_code == 200
    return response.content.decode()


def shows_137(text: str) -> bool:
    """137 as a number, not inside a hex string (the fair-dice commitment on
    every page and in the start event is random hex, and holds "137" now and
    then)."""
    return re.search(r"(?<![0-9a-fA-F])137(?![0-9a-fA-F])", text) is not None


def test_all_bids_in_closes_at_once_highest_wins_and_bids_stay_hidden() -> None:
    users = [_user("ann"), _user("ben"), _user("cat")]
    spectator = _user("spy")
    game = sealed_game(*users)
    open_auction(game, users)
    bid(game, users[0], 137)
    # Nobody else sees 137: not the other seats, not a spectator, not the
    # log or the replay record; the bidder sees their own bid.
    for viewer in (users[1], users[2], spectator, None):
        html = page(game, viewer)
        assert not shows_137(html)
        assert "Sealed bid: one hidden bid; highest wins, ties to the earliest" in html or (
            viewer in (spectator, None)
        )
    assert "Your sealed bid: $137" in page(game, users[0])
    record = Client().get(reverse("game_record", args=[game.public_id])).content.decode()
    assert not shows_137(record)
    public = GameEvent.objects.filter(game=game, audience_seat__isnull=True)
    assert not [e for e in public if shows_137(str(e.payload))]
    bid(game, users[1], 0)
    game.refresh_from_db()
    assert engine.auction_view(engine.from_dict(game.state)) is not None
    bid(game, users[2], 90)
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    # Closed with the last bid: no timer needed.
    assert state.auction is None and state.owner[3] == 0
    assert state.cash[0] == 1500 - 137
    assert not game.deadlines.filter(kind="sealed_bid").exists()
    # After the close the log shows every bid.
    html = page(game, spectator)
    assert "ann&#x27;s sealed bid: $137." in html or "ann's sealed bid: $137." in html


def test_a_tie_goes_to_the_earliest_bid() -> None:
    users = [_user("ann"), _user("ben"), _user("cat")]
    game = sealed_game(*users)
    open_auction(game, users)
    bid(game, users[2], 80)
    bid(game, users[0], 80)
    bid(game, users[1], 10)
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    assert state.owner[3] == 2 and state.cash[2] == 1420 and state.cash[0] == 1500


def test_a_bid_above_cash_is_refused_clearly() -> None:
    users = [_user("ann"), _user("ben")]
    game = sealed_game(*users)
    open_auction(game, users)
    with pytest.raises(services.IllegalMove, match="exceed your cash"):
        bid(game, users[1], 999_999)


def test_no_push_carries_a_sealed_bid_before_the_close(alice: Any, bob: Any) -> None:
    """The pushes of the version with the bid, as rendered for the other seat
    and for spectators (everyone listening): the amount is nowhere."""
    game = sealed_game(alice, bob)
    users = [alice, bob]
    mover = open_auction(game, users)
    bid(game, users[mover], 137)
    game.refresh_from_db()
    with mock.patch("live.presence.listening", return_value=None):
        batches = list(pushes_of(game))
    others = [
        m["html"] for batch in batches for g, m in batch if g != groups.seat_group(game.pk, mover)
    ]
    own = [
        m["html"] for batch in batches for g, m in batch if g == groups.seat_group(game.pk, mover)
    ]
    assert others and own
    assert not any(shows_137(html) for html in others)
    assert any(shows_137(html) for html in own)  # the bidder sees their own bid
