"""The create form pre-selects sealed-bid auctions for long turns, and says why."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.models import Game
from games.switches import SEALED_WHY

pytestmark = pytest.mark.django_db


def auction_kind(html: str) -> str:
    select = re.search(r'<select name="sw_auction_kind".*?</select>', html, re.S)
    assert select is not None
    chosen = re.search(r'<option value="(\w+)" selected', select.group(0))
    assert chosen is not None
    return chosen.group(1)


def test_a_day_long_turn_pre_selects_sealed_bids_and_says_why(client: Client, alice: Any) -> None:
    client.force_login(alice)
    page = client.get("/lobby/").content.decode()  # the form's default: a day per turn
    assert auction_kind(page) == engine.AUCTION_SEALED and SEALED_WHY in page


def test_short_turns_keep_the_books_open_auction(client: Client) -> None:
    html = client.get("/lobby/switches", {"preset": "us-2003", "turn_seconds": "300"}).content
    assert auction_kind(html.decode()) == "open" and SEALED_WHY not in html.decode()


def test_changing_the_timer_keeps_the_other_house_rules(client: Client) -> None:
    answer = client.get(
        "/lobby/switches",
        {"preset": "us-2003", "turn_seconds": "3600", "keep": "1", "switches_present": "1",
         "sw_jail_attempts": "2"},
    ).content.decode()  # fmt: skip
    assert auction_kind(answer) == engine.AUCTION_SEALED
    assert 'name="sw_jail_attempts" id="sw_jail_attempts" value="2"' in answer


def test_a_game_created_with_the_pre_selection_has_sealed_auctions(
    client: Client, alice: Any
) -> None:
    client.force_login(alice)
    response = client.post(
        "/lobby/create",
        {"preset": "us-2003", "max_seats": "2", "turn_seconds": "86400", "visibility": "public",
         "switches_present": "1", "sw_auction_kind": "sealed", "sw_auctions": "on",
         "sw_building_shortage_auctions": "on", "sw_third_doubles_to_jail": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    game = Game.objects.get(host=alice)
    assert game.switches.get("auction_kind") == engine.AUCTION_SEALED
