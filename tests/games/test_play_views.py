"""The in-play game page: every action kind through the views, the
refusals, and what spectators and players see."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import engine, services
from games.models import Game, Seat

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.urls("tests.games.play_urls"),
    pytest.mark.usefixtures("no_bot_tasks"),
]

HTMX = {"HTTP_HX_REQUEST": "true"}
REGION_IDS = ("status", "board", "pending", "players", "log", "actions")


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def state_of(game: Game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


def post(client: Client, game: Game, kind: str, *, htmx: bool = True, **fields: Any) -> Any:
    game.refresh_from_db()
    data = {"kind": kind, "expected_version": game.version, **fields}
    return client.post(f"/games/{game.public_id}/act", data, **(HTMX if htmx else {}))


def region(html: str, region_id: str) -> str:
    """One region's markup (regions hold no nested sections)."""
    start = html.index(f'id="{region_id}"')
    return html[start : html.index("</section>", start)]


def log_of(html: str) -> str:
    """The log region, or in a move's answer (framed as its push) the lines
    that the version added to it."""
    if 'data-delta="log"' in html:
        return html[html.index('data-delta="log"') :]
    return region(html, "log")


def kinds_offered(html: str, trades: bool = False) -> set[str]:
    """The action kinds of the forms in the action panel. Trade offers take
    free-form terms and are not legal actions the engine lists; they are
    left out unless asked for."""
    actions = region(html, "actions")
    kinds = set(re.findall(r'name="kind" value="([a-z_]+)"', actions))
    return kinds if trades else kinds - {engine.PROPOSE_TRADE, engine.COUNTER_TRADE}


@pytest.fixture
def game(duel: Game, edit_state: Callable[..., engine.State]) -> Game:
    """The duel with Alice (seat 0) to move, both on GO."""

    def alice_first(s: engine.State) -> engine.State:
        return engine.setup(s, turn=0)

    edit_state(duel, alice_first)
    return duel


@pytest.fixture
def as_alice(alice: User) -> Client:
    return client_for(alice)


@pytest.fixture
def as_bob(bob: User) -> Client:
    return client_for(bob)


def roll_to(game: Game, edit_state: Callable[..., engine.State], *dice: tuple[int, int]) -> None:
    edit_state(game, lambda s: engine.force_dice(s, *dice))


# --- the page -------------------------------------------------------------------


def test_it_shows_every_region_with_the_version(game: Game, as_alice: Client) -> None:
    response = as_alice.get(f"/games/{game.public_id}/")
    html = response.content.decode()
    assert response.status_code == 200
    for region in REGION_IDS:
        assert re.search(rf'id="{region}"[^>]*data-version="{game.version}"', html), region
    assert "css/game.css" in html


def test_it_offers_exactly_the_legal_actions(game: Game, as_alice: Client) -> None:
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    legal = {a.kind for a in engine.legal_actions(state_of(game), 0)} - {"resign"}
    assert kinds_offered(html) == legal == {engine.ROLL}
    assert engine.PROPOSE_TRADE in kinds_offered(html, trades=True)


def test_spectators_and_anonymous_users_see_no_forms(game: Game, charlie: User) -> None:
    for client in (client_for(charlie), client_for(None)):
        html = client.get(f"/games/{game.public_id}/").content.decode()
        assert 'id="board"' in html and 'id="log"' in html
        assert kinds_offered(html, trades=True) == set()
        assert "<form" not in region(html, "actions")
        assert "You are watching this game." in html


def test_a_player_waiting_sees_no_decision(game: Game, as_bob: Client) -> None:
    html = as_bob.get(f"/games/{game.public_id}/").content.decode()
    assert engine.ROLL not in kinds_offered(html)
    assert "Nothing for you to decide right now." in html
    assert "alice must roll the dice." in region(html, "pending")


def test_a_private_game_is_hidden_from_outsiders(
    private_duel: Game, charlie: User, bob: User
) -> None:
    url = f"/games/{private_duel.public_id}/"
    assert client_for(charlie).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 404
    assert client_for(bob).get(url).status_code == 200
    response = client_for(charlie).post(url + "act", {"kind": "roll", "expected_version": 1})
    assert response.status_code == 404


def test_it_404s_for_an_unknown_game(as_alice: Client, db: None) -> None:
    assert as_alice.get("/games/nosuchgame/").status_code == 404


def test_the_log_is_newest_first_with_turn_numbers(
    game: Game, as_alice: Client, edit_state: Callable[..., engine.State]
) -> None:
    roll_to(game, edit_state, (1, 2))
    post(as_alice, game, engine.ROLL)
    html = client_for(None).get(f"/games/{game.public_id}/").content.decode()
    log = region(html, "log")
    assert log.index("moves to Baltic Avenue") < log.index("rolls 1 and 2")
    assert log.index("Turn 1") < log.index("Setting up")
    assert "moves to Baltic Avenue." in log


# --- each action kind -------------------------------------------------------------


def test_roll_then_buy(game: Game, as_alice: Client, edit_state: Any) -> None:
    roll_to(game, edit_state, (1, 2))
    response = post(as_alice, game, engine.ROLL)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Buy Baltic Avenue for $60" in html
    assert kinds_offered(html) >= {engine.BUY, engine.DECLINE}
    response = post(as_alice, game, engine.BUY)
    assert response.status_code == 200
    s = state_of(game)
    assert s.owner[3] == 0 and s.cash[0] == 1440


def test_decline_bid_and_pass(
    game: Game, as_alice: Client, as_bob: Client, edit_state: Any
) -> None:
    roll_to(game, edit_state, (1, 2))
    post(as_alice, game, engine.ROLL)
    html = post(as_alice, game, engine.DECLINE).content.decode()
    assert "Auction for Baltic Avenue" in html
    assert 'min="1"' in html and 'max="1500"' in html
    assert post(as_alice, game, engine.BID, amount="40").status_code == 200
    bob_html = client_for(game.seats.get(number=1).user).get(f"/games/{game.public_id}/")
    assert 'min="41"' in bob_html.content.decode()
    assert post(as_bob, game, engine.PASS_BID).status_code == 200
    s = state_of(game)
    assert s.owner[3] == 0 and s.cash[0] == 1460 and s.auction is None


def test_jail_pay_the_fine(game: Game, as_alice: Client, edit_state: Any) -> None:
    edit_state(game, lambda s: engine.setup(s, jail={0: 0}))
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    assert kinds_offered(html) == {engine.ROLL, engine.PAY_JAIL_FINE}
    assert "Roll for doubles" in html
    assert post(as_alice, game, engine.PAY_JAIL_FINE).status_code == 200
    s = state_of(game)
    assert not s.in_jail[0] and s.cash[0] == 1450


def test_jail_use_a_card(game: Game, as_alice: Client, edit_state: Any) -> None:
    def jailed_with_card(s: engine.State) -> engine.State:
        return engine.setup(s, jail={0: 0}, jail_cards={0: (1, 0)})

    edit_state(game, jailed_with_card)
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    assert "Use a Get Out of Jail Free card (Chance)" in html
    assert post(as_alice, game, engine.USE_JAIL_CARD, target="0").status_code == 200
    s = state_of(game)
    assert not s.in_jail[0] and s.jail_cards[0] == [0, 0]


def test_jail_roll_for_doubles(game: Game, as_alice: Client, edit_state: Any) -> None:
    edit_state(game, lambda s: engine.setup(s, jail={0: 0}))
    roll_to(game, edit_state, (2, 2))
    assert post(as_alice, game, engine.ROLL).status_code == 200
    s = state_of(game)
    assert not s.in_jail[0] and s.pos[0] == 14


def test_income_tax_choice_hides_the_worth(game: Game, as_alice: Client, edit_state: Any) -> None:
    edit_state(game, lambda s: s.owner.__setitem__(39, 0))  # worth 1,900: 10% is 190
    roll_to(game, edit_state, (1, 3))
    html = post(as_alice, game, engine.ROLL).content.decode()
    actions = region(html, "actions")
    assert "Pay $200 Income Tax" in actions and "Pay 10% of my total worth" in actions
    assert "1,900" not in html and "$190" not in html
    html = post(as_alice, game, engine.INCOME_TAX_PERCENT).content.decode()
    assert state_of(game).cash[0] == 1310
    assert "total worth is $1900" in log_of(html)


def test_uk_fine_or_chance(alice: User, bob: User, edit_state: Any) -> None:
    from games import services

    game = services.create_game(host=alice, preset="uk", max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()

    def land_on_chest(s: engine.State) -> engine.State:
        s = engine.setup(s, turn=0, deck_tops={1: [engine.card_index(s, 1, "fine_or_chance")]})
        engine.force_dice(s, (1, 1), (3, 4))  # doubles: card choice, then roll again
        return s

    edit_state(game, land_on_chest)
    as_alice = client_for(alice)
    html = post(as_alice, game, engine.ROLL).content.decode()
    assert "Pay the £10 fine" in html and "Take a Chance" in html
    assert post(as_alice, game, engine.PAY_TEN).status_code == 200
    assert state_of(game).cash[0] == 1490


def test_build_sell_and_sell_group(game: Game, as_alice: Client, edit_state: Any) -> None:
    def browns(s: engine.State) -> engine.State:
        return engine.setup(s, owners={1: 0, 3: 0})

    edit_state(game, browns)
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    assert "Manage property" in html and "Build a house ($50)" in html
    assert post(as_alice, game, engine.BUILD, square="1").status_code == 200
    assert state_of(game).bld[1] == 1
    assert post(as_alice, game, engine.SELL_BUILDING, square="1").status_code == 200
    assert state_of(game).bld[1] == 0

    def hotels(s: engine.State) -> engine.State:
        return engine.setup(s, buildings={1: engine.HOTEL, 3: engine.HOTEL})

    edit_state(game, hotels)
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    assert "Sell all buildings on the brown group" in html
    assert post(as_alice, game, engine.SELL_GROUP_BUILDINGS, target="0").status_code == 200
    s = state_of(game)
    assert s.bld[1] == s.bld[3] == 0 and s.cash[0] == 1500 - 50 + 25 + 2 * 125


def test_mortgage_and_lift(game: Game, as_alice: Client, edit_state: Any) -> None:
    edit_state(game, lambda s: s.owner.__setitem__(39, 0))
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    assert "Mortgage (+$200)" in html
    post(as_alice, game, engine.MORTGAGE, square="39")
    assert state_of(game).mortgaged[39]
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    assert "Lift mortgage ($220)" in html
    post(as_alice, game, engine.UNMORTGAGE, square="39")
    s = state_of(game)
    assert not s.mortgaged[39] and s.cash[0] == 1500 + 200 - 220


def test_rent_is_claimed_automatically_by_default(
    game: Game, as_alice: Client, as_bob: Client, edit_state: Any
) -> None:
    edit_state(game, lambda s: s.owner.__setitem__(3, 1))
    roll_to(game, edit_state, (1, 2))
    post(as_alice, game, engine.ROLL)
    s = state_of(game)
    assert s.cash == [1496, 1504] and not s.claims
    html = as_bob.get(f"/games/{game.public_id}/").content.decode()
    assert "(standing order)" in html and "Claim $4 rent" not in html


def test_claim_rent(game: Game, as_alice: Client, as_bob: Client, edit_state: Any) -> None:
    # Bob turns the automatic claim off (it is on by default) and claims by hand.
    response = as_bob.post(
        f"/games/{game.public_id}/orders",
        {"auction": "", "jail": ""},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200 and "Saved." in response.content.decode()
    assert game.seats.get(number=1).standing_orders["claim_rent"] is False
    edit_state(game, lambda s: s.owner.__setitem__(3, 1))
    roll_to(game, edit_state, (1, 2))
    post(as_alice, game, engine.ROLL)
    html = as_bob.get(f"/games/{game.public_id}/").content.decode()
    assert "Claim $4 rent from alice" in html
    claim_id = engine.claims(state_of(game))[0].id
    assert post(as_bob, game, engine.CLAIM_RENT, target=str(claim_id)).status_code == 200
    s = state_of(game)
    assert s.cash == [1496, 1504] and not s.claims


def test_end_turn(game: Game, as_alice: Client, edit_state: Any) -> None:
    roll_to(game, edit_state, (1, 3))
    post(as_alice, game, engine.ROLL)
    post(as_alice, game, engine.INCOME_TAX_FLAT)
    assert post(as_alice, game, engine.END_TURN).status_code == 200
    assert state_of(game).turn == 1


# --- trades -------------------------------------------------------------------------


def trade_fields(**fields: Any) -> dict[str, Any]:
    return {"give_cash": "", "take_cash": "", **fields}


@pytest.fixture
def deeds(game: Game, edit_state: Any) -> Game:
    def deal(s: engine.State) -> engine.State:
        return engine.setup(s, owners={1: 0, 39: 1})  # Mediterranean: Alice; Boardwalk: Bob

    edit_state(game, deal)
    return game


def test_propose_and_accept(deeds: Game, as_alice: Client, as_bob: Client) -> None:
    html = as_alice.get(f"/games/{deeds.public_id}/").content.decode()
    assert "Propose a trade to bob" in html
    response = post(
        as_alice,
        deeds,
        engine.PROPOSE_TRADE,
        target="1",
        give_props="1",
        take_props="39",
        give_cash="100",
    )
    assert response.status_code == 200
    html = as_bob.get(f"/games/{deeds.public_id}/").content.decode()
    assert "alice offers you" in html and "Mediterranean Avenue, $100" in html
    trade_id = engine.offers(state_of(deeds))[0].id
    assert post(as_bob, deeds, engine.ACCEPT_TRADE, target=str(trade_id)).status_code == 200
    s = state_of(deeds)
    assert s.owner[1] == 1 and s.owner[39] == 0 and s.cash == [1400, 1600]


def test_reject(deeds: Game, as_alice: Client, as_bob: Client) -> None:
    post(as_alice, deeds, engine.PROPOSE_TRADE, target="1", take_props="39", give_cash="317")
    trade_id = engine.offers(state_of(deeds))[0].id
    assert post(as_bob, deeds, engine.REJECT_TRADE, target=str(trade_id)).status_code == 200
    s = state_of(deeds)
    assert not s.trades and s.owner[39] == 1


def test_counter_is_a_prefilled_form(deeds: Game, as_alice: Client, as_bob: Client) -> None:
    post(as_alice, deeds, engine.PROPOSE_TRADE, target="1", take_props="39", give_cash="317")
    trade_id = engine.offers(state_of(deeds))[0].id
    html = as_bob.get(f"/games/{deeds.public_id}/").content.decode()
    counter = html[html.index("Make a counter-offer") :]
    assert re.search(r'name="give_props" value="39" checked', counter)
    assert re.search(r'name="take_cash"[^>]*value="317"', counter)
    response = post(
        as_bob, deeds, engine.COUNTER_TRADE, target=str(trade_id), give_props="39", take_cash="350"
    )
    assert response.status_code == 200
    (new,) = engine.offers(state_of(deeds))
    assert (new.proposer, new.recipient) == (1, 0)
    assert new.terms.take_cash == 350 and new.terms.give_props == (39,)


def test_withdraw(deeds: Game, as_alice: Client) -> None:
    post(as_alice, deeds, engine.PROPOSE_TRADE, target="1", take_props="39", give_cash="317")
    trade_id = engine.offers(state_of(deeds))[0].id
    html = as_alice.get(f"/games/{deeds.public_id}/").content.decode()
    assert "Your offer to bob" in html and "Withdraw offer" in html
    assert post(as_alice, deeds, engine.WITHDRAW_TRADE, target=str(trade_id)).status_code == 200
    assert not state_of(deeds).trades


def test_trade_offers_are_shown_to_the_two_parties_only(
    deeds: Game, as_alice: Client, charlie: User
) -> None:
    post(as_alice, deeds, engine.PROPOSE_TRADE, target="1", take_props="39", give_cash="317")
    html = client_for(charlie).get(f"/games/{deeds.public_id}/").content.decode()
    assert "$317" not in html and "317" not in region(html, "actions")
    assert "bob must answer alice's trade offer" in html.replace("&#x27;", "'")


def test_a_bad_trade_form_is_refused_and_kept(deeds: Game, as_alice: Client) -> None:
    version = deeds.version
    response = post(
        as_alice, deeds, engine.PROPOSE_TRADE, target="1", take_props="39", give_cash="lots"
    )
    assert response.status_code == 422
    assert "The cash you give must be a whole number" in response.content.decode()
    response = post(as_alice, deeds, engine.PROPOSE_TRADE, target="1", give_cash="99999")
    assert response.status_code == 422
    html = response.content.decode()
    assert "does not have that much cash" in html
    assert re.search(r"<details class=\"trade-form\" open>", html)
    assert re.search(r'name="give_cash"[^>]*value="99999"', html)
    deeds.refresh_from_db()
    assert deeds.version == version and not state_of(deeds).trades


def test_an_empty_trade_is_refused(deeds: Game, as_alice: Client) -> None:
    response = post(as_alice, deeds, engine.PROPOSE_TRADE, target="1")
    assert response.status_code == 422
    assert "A trade must exchange something." in response.content.decode()


# --- debts, bankruptcy, resigning -----------------------------------------------


def test_raise_funds_then_pay_the_debt(game: Game, as_alice: Client, edit_state: Any) -> None:
    def broke(s: engine.State) -> engine.State:
        return engine.setup(s, cash={0: 100}, owners={39: 0})

    edit_state(game, broke)
    roll_to(game, edit_state, (1, 3))
    post(as_alice, game, engine.ROLL)
    html = post(as_alice, game, engine.INCOME_TAX_FLAT).content.decode()
    assert "You owe $200 and have $100" in html
    assert {engine.AUTO_SETTLE, engine.DECLARE_BANKRUPTCY, engine.MORTGAGE} <= kinds_offered(html)
    assert engine.PAY_DEBT not in kinds_offered(html)
    post(as_alice, game, engine.MORTGAGE, square="39")
    assert post(as_alice, game, engine.PAY_DEBT).status_code == 200
    s = state_of(game)
    assert not s.debts and s.cash[0] == 100


def test_auto_settle(game: Game, as_alice: Client, edit_state: Any) -> None:
    def broke(s: engine.State) -> engine.State:
        return engine.setup(s, cash={0: 100}, owners={39: 0})

    edit_state(game, broke)
    roll_to(game, edit_state, (1, 3))
    post(as_alice, game, engine.ROLL)
    post(as_alice, game, engine.INCOME_TAX_FLAT)
    assert post(as_alice, game, engine.AUTO_SETTLE).status_code == 200
    s = state_of(game)
    assert not s.debts and s.mortgaged[39]


def test_declare_bankruptcy_ends_the_game(game: Game, as_alice: Client, edit_state: Any) -> None:
    edit_state(game, lambda s: s.cash.__setitem__(0, 10))
    roll_to(game, edit_state, (1, 3))
    post(as_alice, game, engine.ROLL)
    post(as_alice, game, engine.INCOME_TAX_FLAT)
    response = post(as_alice, game, engine.DECLARE_BANKRUPTCY)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    html = client_for(None).get(f"/games/{game.public_id}/").content.decode()
    assert "bob wins" in html and 'class="ranking"' in html
    assert "Place 1" in html


@pytest.mark.skipif(not hasattr(engine, "RESIGN"), reason="the engine has no resign action yet")
def test_resign(game: Game, as_alice: Client) -> None:
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    assert "Resign from this game" in html
    game.refresh_from_db()
    response = as_alice.post(
        f"/games/{game.public_id}/resign", {"expected_version": game.version}, **HTMX
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.seats.get(number=0).status == Seat.Status.RESIGNED
    assert game.status == Game.Status.FINISHED


def test_resign_needs_a_seat(game: Game, charlie: User) -> None:
    response = client_for(charlie).post(
        f"/games/{game.public_id}/resign", {"expected_version": game.version}, **HTMX
    )
    assert response.status_code == 403


# --- refusals -------------------------------------------------------------------------


def test_it_refuses_anonymous_users(game: Game) -> None:
    response = post(client_for(None), game, engine.ROLL)
    assert response.status_code == 403
    assert state_of(game).roll_no == 0


def test_it_refuses_spectators(game: Game, charlie: User) -> None:
    response = post(client_for(charlie), game, engine.ROLL)
    assert response.status_code == 403
    assert 'role="alert"' in response.content.decode()


def test_it_refuses_a_player_of_another_game(game: Game, charlie: User, bob: User) -> None:
    from games import services

    other = services.create_game(host=charlie, max_seats=2, bot_delay_ms=0)
    assert other.seats.filter(user=charlie).exists()
    response = post(client_for(charlie), game, engine.ROLL)
    assert response.status_code == 403
    assert state_of(game).roll_no == 0


def test_it_refuses_when_it_is_not_your_turn(game: Game, as_bob: Client) -> None:
    response = post(as_bob, game, engine.ROLL)
    assert response.status_code == 422
    assert "It is not your turn." in response.content.decode()


def test_a_stale_version_is_a_conflict_and_changes_nothing(game: Game, as_alice: Client) -> None:
    before = game.state
    response = as_alice.post(
        f"/games/{game.public_id}/act",
        {"kind": engine.ROLL, "expected_version": game.version - 1},
        **HTMX,
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "The game moved on" in html and 'role="alert"' in html
    assert kinds_offered(html) == {engine.ROLL}  # the fresh panel
    game.refresh_from_db()
    assert game.state == before


def test_a_malformed_amount_is_422(game: Game, as_alice: Client, edit_state: Any) -> None:
    roll_to(game, edit_state, (1, 2))
    post(as_alice, game, engine.ROLL)
    post(as_alice, game, engine.DECLINE)
    game.refresh_from_db()
    version = game.version
    for amount in ("ten", "-5", "1e3", "", "²"):
        response = post(as_alice, game, engine.BID, amount=amount)
        assert response.status_code == 422, amount
        assert "Your bid" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


def test_an_unknown_kind_or_missing_version_is_422(game: Game, as_alice: Client) -> None:
    assert post(as_alice, game, "teleport").status_code == 422
    assert post(as_alice, game, "end_now").status_code == 422
    response = as_alice.post(f"/games/{game.public_id}/act", {"kind": engine.ROLL}, **HTMX)
    assert response.status_code == 422
    assert state_of(game).roll_no == 0


def test_a_double_submit_acts_once(game: Game, as_alice: Client, edit_state: Any) -> None:
    roll_to(game, edit_state, (1, 2), (1, 2))
    game.refresh_from_db()
    form = {"kind": engine.ROLL, "expected_version": game.version}
    url = f"/games/{game.public_id}/act"
    assert as_alice.post(url, form, **HTMX).status_code == 200
    assert as_alice.post(url, form, **HTMX).status_code == 409
    s = state_of(game)
    assert s.roll_no == 1 and s.pos[0] == 3


def test_it_rejects_get_on_act(game: Game, as_alice: Client) -> None:
    assert as_alice.get(f"/games/{game.public_id}/act").status_code == 405


# --- htmx and plain posts --------------------------------------------------------------


def test_an_htmx_action_answers_with_its_versions_push_and_the_panel_as_target(
    game: Game, as_alice: Client, edit_state: Any
) -> None:
    roll_to(game, edit_state, (1, 2))
    html = post(as_alice, game, engine.ROLL).content.decode()
    game.refresh_from_db()
    # Framed as the version's push, so that live.js applies it as one.
    assert html.startswith(f"<!--push {game.version}-->")
    body = html.removeprefix(f"<!--push {game.version}-->").lstrip()
    assert body.startswith('<section id="actions" class="region card actions" data-version')
    assert not re.search(r'id="actions"[^>]*hx-swap-oob', body.split(">", 1)[0])
    for region in ("status", "board", "pending", "players"):
        assert re.search(rf'id="{region}"[^>]*hx-swap-oob="true"', html, re.S), region
    # The log as the lines this version added, on top of the page's log.
    assert f'<template data-delta="log" data-version="{game.version}"' in html
    assert "rolls 1 and 2" in log_of(html) and "Setting up" not in log_of(html)
    assert f'data-version="{game.version}"' in html
    assert "<html" not in html


def test_a_plain_post_redirects_back(game: Game, as_alice: Client) -> None:
    response = post(as_alice, game, engine.ROLL, htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.public_id}/"
    assert state_of(game).roll_no == 1


def test_a_refused_plain_post_redirects_with_a_message(game: Game, as_bob: Client) -> None:
    response = post(as_bob, game, engine.ROLL, htmx=False)
    assert response.status_code == 302
    page = as_bob.get(response["Location"]).content.decode()
    assert "It is not your turn." in page


def test_regions_resync(game: Game, as_alice: Client) -> None:
    url = f"/games/{game.public_id}/regions"
    assert as_alice.get(f"{url}?since={game.version}").status_code == 204
    html = as_alice.get(f"{url}?since={game.version - 1}").content.decode()
    for region in REGION_IDS:
        assert re.search(rf'id="{region}"[^>]*hx-swap-oob="true"', html, re.S), region
    assert kinds_offered(html) == {engine.ROLL}


def test_regions_of_a_private_game_are_hidden(private_duel: Game, charlie: User) -> None:
    url = f"/games/{private_duel.public_id}/regions"
    assert client_for(charlie).get(url).status_code == 404


def test_a_bot_game_page_renders_bot_badges(alice: User) -> None:
    from games import services

    game = services.create_game(host=alice, max_seats=3, bot_delay_ms=0)
    services.add_bot(public_id=game.public_id, user=alice)
    services.add_bot(public_id=game.public_id, user=alice)
    services.start_game(public_id=game.public_id, user=alice)
    for _ in range(30):
        if not services.play_bot_move(game.pk, Game.objects.get(pk=game.pk).version):
            break
    html = client_for(alice).get(f"/games/{game.public_id}/").content.decode()
    assert html.count('class="badge bot"') == 2
    assert '<a href="/u/alice/">alice</a>' in html


def test_the_final_ranking_reads_place_name_and_worth_without_stray_marks(
    game: Game, as_alice: Client, bob: User
) -> None:
    game.refresh_from_db()
    services.resign(public_id=game.public_id, user=bob, expected_version=game.version)
    html = as_alice.get(f"/games/{game.public_id}/").content.decode()
    ranking = html[
        html.index('<ol class="ranking">') : html.index("</ol>", html.index('class="ranking"'))
    ]
    items = [item.split(">", 1)[1] for item in ranking.split("<li")[1:]]
    rows = [re.sub(r"<[^>]+>", " ", item).split() for item in items]
    assert [row[:2] for row in rows] == [["1", "alice"], ["2", "bob"]]
    assert all("." not in row for row in rows)  # a hidden "." read as a line of its own
