"""GET /board: the printed board a client values property and trades from."""

from __future__ import annotations

from accounts.models import User
from games import engine
from tests.api.conftest import Api, api_for


def test_the_board_lists_every_square_with_its_deed(alice: User) -> None:
    answer = api_for(alice, "read").get("/board")
    assert answer.status_code == 200
    board = answer.json()
    squares = board["squares"]
    assert [sq["square"] for sq in squares] == list(range(40))
    boardwalk = squares[39]
    assert boardwalk == {
        "square": 39,
        "kind": "site",
        "group": 7,
        "name_us": "Boardwalk",
        "name_uk": "Mayfair",
        "price": 400,
        "mortgage": 200,
        "house_cost": 200,
        "rents": [50, 200, 600, 1400, 1700, 2000],
    }
    assert squares[5]["kind"] == "railroad" and squares[5]["group"] == 8
    assert squares[0]["kind"] == "go" and squares[0]["group"] is None
    assert [g["members"] for g in board["groups"]] == [list(m) for m in engine.GROUP_MEMBERS]
    assert board["groups"][7]["name"] == "dark blue"
    assert board["railroad_rents"] == [25, 50, 100, 200]


def test_the_board_needs_a_token_that_reads() -> None:
    assert Api(None).get("/board").status_code == 401


def test_a_play_token_cannot_read_the_board(alice: User) -> None:
    assert api_for(alice, "play").get("/board").status_code == 403


def test_the_turn_limit_is_no_switch_a_game_can_be_created_with(alice: User) -> None:
    answer = api_for(alice).post("/games", {"seats": 2, "switches": {"turn_limit": 10}})
    assert answer.status_code == 422
    assert "not a house rule" in answer.json()["detail"]
