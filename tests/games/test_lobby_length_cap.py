"""The length cap as a house rule (issue #33): the create form offers it in
turns and in days, refuses what is out of range with clear words, and the
game's page lists it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import engine
from games.models import Game
from games.switches import CAP_MAX, parse_switches

pytestmark = pytest.mark.django_db

FORM = {
    "preset": "us-2003", "max_seats": "2", "turn_seconds": "3600", "visibility": "public",
    "switches_present": "1", "sw_auctions": "on", "sw_building_shortage_auctions": "on",
    "sw_third_doubles_to_jail": "on", "sw_auction_kind": "sealed",
}  # fmt: skip


def test_the_form_offers_both_caps_off_by_default(client: Client, alice: Any) -> None:
    client.force_login(alice)
    page = client.get("/lobby/").content.decode()
    assert 'name="sw_cap_turns" id="sw_cap_turns" value="0" min="0" max="1000"' in page
    assert 'name="sw_cap_days" id="sw_cap_days" value="0" min="0" max="366"' in page
    assert "Length cap in turns" in page and "Length cap in days" in page


def test_a_game_created_with_caps_plays_them_and_lists_them(client: Client, alice: Any) -> None:
    client.force_login(alice)
    response = client.post("/lobby/create", {**FORM, "sw_cap_turns": "30", "sw_cap_days": "14"})
    assert response.status_code == 302
    game = Game.objects.get(host=alice)
    assert game.switches["cap_turns"] == 30 and game.switches["cap_days"] == 14
    page = client.get(game.get_absolute_url()).content.decode()
    assert "<li>Length cap in turns: 30</li>" in page
    assert "<li>Length cap in days: 14</li>" in page


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("sw_cap_days", "400", "Length cap in days must be from 0 (no cap) to 366."),
        ("sw_cap_turns", "-3", "Length cap in turns must be from 0 (no cap) to 1000."),
        ("sw_cap_turns", "ten", "Length cap in turns must be a whole number."),
    ],
)
def test_a_cap_out_of_range_is_refused_in_words_and_creates_nothing(
    client: Client, alice: Any, field: str, value: str, words: str
) -> None:
    client.force_login(alice)
    response = client.post("/lobby/create", {**FORM, field: value})
    assert response.status_code == 422
    assert words in response.content.decode()
    assert not Game.objects.filter(host=alice).exists()


def test_the_forms_limits_are_the_engines() -> None:
    for name, most in CAP_MAX.items():
        assert getattr(engine.ruleset(**{name: most}), name) == most
        with pytest.raises(engine.RulesetError):
            engine.ruleset(**{name: most + 1})
    assert "cap_days" not in parse_switches("us-2003", {"sw_cap_days": "0"})
