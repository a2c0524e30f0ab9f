"""State into words and plain data for the play page, and legal actions
into form descriptors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine, wording
from games.models import Game, GameEvent, Seat
from games.web import action_forms, presenters
from games.web.snapshot import Snapshot
from tests.conftest import setup_writes

pytestmark = pytest.mark.usefixtures("no_bot_tasks")


def fresh(preset: str = "us-2003", players: int = 3) -> engine.State:
    names = ["Alice", "Bob", "Carol", "Dan"][:players]
    s = engine.new_game(engine.ruleset(preset), names, seed=7)
    return engine.setup(s, turn=0)


def after(s: engine.State, *actions: engine.Action) -> engine.State:
    for action in actions:
        s, _ = engine.apply(s, action)
    return s


def texts(s: engine.State, viewer: int | None = None) -> list[str]:
    return [line["text"] for line in presenters.pending(s, viewer)]


# --- money and names ------------------------------------------------------------


def test_money_uses_the_editions_currency_and_thousands() -> None:
    assert wording.money(engine.ruleset("us-2003"), 1500) == "$1,500"
    assert wording.money(engine.ruleset("uk"), 60) == "£60"
    assert wording.money(engine.ruleset("uk"), -5) == "-£5"


def test_square_and_group_names_follow_the_edition() -> None:
    assert wording.square_name(engine.ruleset("uk"), 39) == "Mayfair"
    assert wording.square_name(engine.ruleset("us-2003"), 39) == "Boardwalk"
    assert presenters.group_name(engine.ruleset("uk"), 8) == "stations"


# --- pending decisions -------------------------------------------------------------


def test_pending_roll_and_jail() -> None:
    s = fresh()
    assert texts(s) == ["Alice must roll the dice."]
    s = engine.setup(s, jail={0: 0})
    assert texts(s) == ["Alice is in Jail: pay the fine, use a card, or roll for doubles."]


def test_pending_buy_names_the_square_and_price() -> None:
    s = fresh()
    engine.force_dice(s, (1, 2))
    s = after(s, engine.Action(engine.ROLL, 0))
    assert texts(s) == ["Alice must decide whether to buy Baltic Avenue for $60."]


def test_pending_auction_is_one_line_with_the_high_bid() -> None:
    s = fresh()
    engine.force_dice(s, (1, 2))
    s = after(s, engine.Action(engine.ROLL, 0), engine.Action(engine.DECLINE, 0))
    assert texts(s)[0] == "Auction for Baltic Avenue: Alice, Bob and Carol may bid; no bids yet."
    s = after(s, engine.Action(engine.BID, 1, amount=20))
    lines = presenters.pending(s, viewer=0)
    assert lines[0]["text"] == (
        "Auction for Baltic Avenue: Alice and Carol may bid; high bid $20 by Bob."
    )
    assert lines[0]["mine"] and not presenters.pending(s, viewer=1)[0]["mine"]


def test_pending_income_tax_does_not_show_the_worth() -> None:
    s = fresh()
    engine.force_dice(s, (1, 3))
    s = after(s, engine.Action(engine.ROLL, 0))
    assert texts(s) == ["Alice must choose how to pay Income Tax: $200 or 10% of total worth."]


def test_pending_fine_or_chance_in_the_uk() -> None:
    s = fresh("uk")
    s = engine.setup(s, deck_tops={1: [engine.card_index(s, 1, "fine_or_chance")]})
    engine.force_dice(s, (1, 1))
    s = after(s, engine.Action(engine.ROLL, 0))
    assert texts(s) == ["Alice must choose: pay a £10 fine or take a Chance."]


def test_pending_trade_claim_and_debt() -> None:
    s = engine.setup(fresh(), owners={3: 1})
    engine.force_dice(s, (1, 2))
    s = after(
        s,
        engine.Action(engine.ROLL, 0),
        engine.Action(engine.PROPOSE_TRADE, 0, target=2, terms=engine.Terms(give_cash=10)),
    )
    lines = texts(s)
    assert "Carol must answer Alice's trade offer (#2)." in lines
    assert "Bob may claim $4 rent from Alice for Baltic Avenue." in lines
    s.debts.append([0, 1, 500])
    assert texts(s)[0] == "Alice owes $500 and must raise funds, pay, or declare bankruptcy."


def test_turn_line() -> None:
    s = fresh()
    assert presenters.turn_line(s) == "Turn 1: Alice to play."


# --- property and players -------------------------------------------------------------


def test_property_groups_mark_sets_buildings_and_mortgages() -> None:
    s = engine.setup(
        fresh(),
        owners={1: 0, 3: 0, 5: 0, 39: 0},
        buildings={1: 4, 3: engine.HOTEL},
        mortgaged=[5],
    )
    groups = presenters.property_groups(s, 0)
    assert [g["name"] for g in groups] == ["brown", "dark blue", "railroads"]
    brown = groups[0]
    assert brown["complete"] and brown["properties"][0]["houses"] == 4
    assert brown["properties"][0]["house_marks"] == "■■■■"
    assert brown["properties"][1]["hotel"] and brown["properties"][1]["houses"] == 0
    assert not groups[1]["complete"]
    assert groups[2]["properties"][0]["mortgaged"]


@pytest.mark.django_db
def test_players_show_cash_turn_jail_cards_and_links(
    duel: Game, edit_state: Callable[..., engine.State]
) -> None:
    def setup(s: engine.State) -> engine.State:
        return engine.setup(s, turn=1, jail={1: 0}, jail_cards={1: (1, 0)}, cash={0: 1234})

    s = edit_state(duel, setup)
    alice, bob = presenters.players(Snapshot.of(duel, state=s), viewer=0)
    assert alice["cash"] == "$1,234" and alice["is_viewer"] and not alice["is_turn"]
    assert alice["seat"].profile_url == "/u/alice/"
    assert bob["is_turn"] and bob["in_jail"] and bob["jail_cards"] == ["Chance"]


@pytest.mark.django_db
def test_a_bot_seat_has_no_profile_link(alice: Any) -> None:
    from games import services

    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.add_bot(public_id=game.public_id, user=alice)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    seats = presenters.seat_views(presenters.game_seats(game))
    assert seats[1].is_bot and seats[1].profile_url == "" and seats[1].bot_label
    assert seats[0].colour != seats[1].colour


@pytest.mark.django_db
def test_ranking_lists_places_and_worths_when_over(duel: Game) -> None:
    s = presenters.load_state(duel)
    assert s is not None
    assert presenters.ranking(Snapshot.of(duel, state=s)) == []
    s.phase = 5  # over
    s.alive[1] = False
    with setup_writes("the final ranks"):
        Seat.objects.filter(game=duel, number=0).update(final_rank=1, final_net_worth=2500)
        Seat.objects.filter(game=duel, number=1).update(final_rank=2, final_net_worth=0)
    rows = presenters.ranking(Snapshot.of(duel, state=s))
    assert [(r["rank"], r["seat"].name, r["net_worth"], r["out"]) for r in rows] == [
        (1, "alice", "$2,500", ""),
        (2, "bob", "$0", "bankrupt"),
    ]


@pytest.mark.django_db
def test_the_ranking_says_resigned_for_a_player_who_resigned_not_bankrupt(duel: Game) -> None:
    s = presenters.load_state(duel)
    assert s is not None
    s.phase = 5  # over
    s.alive[1] = False
    with setup_writes("the final ranks"):
        Seat.objects.filter(game=duel, number=0).update(final_rank=1, final_net_worth=2500)
        Seat.objects.filter(game=duel, number=1).update(
            final_rank=2, final_net_worth=0, status=Seat.Status.RESIGNED
        )
    rows = presenters.ranking(Snapshot.of(duel, state=s))
    assert [r["out"] for r in rows] == ["", "resigned"]


# --- log ------------------------------------------------------------------------------


def event(game: Game, seq: int, index: int, audience: int | None = None, **payload: Any) -> None:
    with setup_writes("a scripted event"):
        GameEvent.objects.create(
            game=game,
            seq=seq,
            index=index,
            kind=payload["kind"],
            payload=payload,
            audience_seat=audience,
        )


@pytest.mark.django_db
def test_log_is_grouped_by_turn_newest_first_and_private_to_its_seat(duel: Game) -> None:
    s = presenters.load_state(duel)
    assert s is not None
    v = duel.version
    event(duel, v + 1, 0, kind="action", player=0)
    event(duel, v + 1, 1, kind="dice", player=0, d1=2, d2=3)
    event(duel, v + 2, 0, kind="turn_start", player=1, turn_no=1)
    event(duel, v + 2, 1, audience=1, kind="collect", player=1, amount=7)
    public = presenters.log(Snapshot.of(duel, state=s), viewer=None)
    assert [g["label"] for g in public] == ["Turn 2", "Turn 1", "Setting up"]
    assert public[1]["lines"][0]["text"] == f"{s.names[0]} rolls 2 and 3."
    assert all("collects" not in line["text"] for g in public for line in g["lines"])
    assert all(line["kind"] != "action" for g in public for line in g["lines"])
    mine = presenters.log(Snapshot.of(duel, state=s), viewer=1)
    assert mine[0]["lines"][0]["text"] == f"{s.names[1]} collects $7."
    assert mine[0]["lines"][0]["private"]


@pytest.mark.django_db
def test_log_keeps_the_last_hundred(duel: Game) -> None:
    s = presenters.load_state(duel)
    assert s is not None
    for i in range(150):
        event(duel, duel.version + 1 + i, 0, kind="collect", player=0, amount=i)
    groups = presenters.log(Snapshot.of(duel, state=s), viewer=None)
    assert sum(len(g["lines"]) for g in groups) == presenters.LOG_LIMIT
    assert groups[0]["label"] == "Turn 1"  # the turn in play when the window opens


@pytest.mark.django_db(transaction=True)  # the log is cached only outside a transaction
def test_the_cached_log_reads_only_new_events_and_matches_a_full_read(duel: Game) -> None:
    s = presenters.load_state(duel)
    assert s is not None
    v = duel.version
    for i in range(presenters.LOG_LIMIT + 20):
        if i % 7 == 0:
            event(duel, v + 1 + i, 0, kind="turn_start", player=i % 2, turn_no=i // 7)
        event(duel, v + 1 + i, 1, kind="collect", player=0, amount=i)
        event(duel, v + 1 + i, 2, audience=1, kind="collect", player=1, amount=i)
    presenters._LOG_CACHE.clear()
    presenters.log(Snapshot.of(duel, state=s), viewer=1)  # fills the cache
    v += presenters.LOG_LIMIT + 20
    event(duel, v + 1, 0, kind="turn_start", player=1, turn_no=99)
    event(duel, v + 1, 1, audience=1, kind="collect", player=1, amount=5)
    event(duel, v + 2, 0, audience=0, kind="collect", player=0, amount=6)
    snap = Snapshot.of(duel, state=s)
    with CaptureQueriesContext(connection) as queries:
        incremental = presenters.log(snap, viewer=1)
    assert len(queries) == 1
    with transaction.atomic():  # uncached
        assert incremental == presenters.log(Snapshot.of(duel, state=s), viewer=1)
    assert incremental[0]["label"] == "Turn 100"
    assert sum(len(g["lines"]) for g in incremental) == presenters.LOG_LIMIT
    presenters._LOG_CACHE.clear()


@pytest.mark.django_db
def test_the_log_delta_holds_only_the_new_versions_lines_newest_first(duel: Game) -> None:
    s = presenters.load_state(duel)
    assert s is not None
    v = duel.version
    event(duel, v + 1, 0, kind="turn_start", player=0, turn_no=0)
    event(duel, v + 1, 1, kind="dice", player=0, d1=2, d2=3)
    duel.version = v + 2
    event(duel, v + 2, 0, kind="collect", player=0, amount=5)
    event(duel, v + 2, 1, audience=1, kind="collect", player=1, amount=6)
    event(duel, v + 2, 2, kind="turn_start", player=1, turn_no=1)
    event(duel, v + 2, 3, kind="dice", player=1, d1=1, d2=1)
    spectators = presenters.log_delta(Snapshot.of(duel, state=s), viewer=None)
    assert spectators is not None and spectators["top"] == 0
    assert [line["text"] for line in spectators["into"]] == [f"{s.names[0]} collects $5."]
    [turn] = spectators["turns"]
    assert turn["label"] == "Turn 2" and [line["kind"] for line in turn["lines"]] == [
        "dice",
        "turn_start",
    ]
    seat = presenters.log_delta(Snapshot.of(duel, state=s), viewer=1)
    assert seat is not None and len(seat["into"]) == 2  # with the seat's private line


@pytest.mark.django_db
def test_the_log_delta_is_none_when_there_is_nothing_to_add_to(duel: Game) -> None:
    s = presenters.load_state(duel)
    assert s is not None
    with setup_writes("no events yet"):
        GameEvent.objects.filter(game=duel).delete()
    duel.version += 1
    event(duel, duel.version, 0, kind="dice", player=0, d1=2, d2=3)
    assert presenters.log_delta(Snapshot.of(duel, state=s), viewer=None) is None


# --- board ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_board_falls_back_to_a_list_when_drawing_fails(duel: Game) -> None:
    s = presenters.load_state(duel)
    assert s is not None
    with mock.patch("games.web.board_svg.render_board_live", side_effect=RuntimeError("boom")):
        html = presenters.board_markup(s, duel)
    assert "board-placeholder" in html and "is on GO" in html


# --- the action panel --------------------------------------------------------------------


def test_the_panel_holds_exactly_the_legal_actions() -> None:
    s = engine.setup(fresh(), owners={39: 0})
    panel = action_forms.panel(s, 0)
    kinds = [f.kind for f in panel.decision]
    kinds += [f.kind for row in panel.properties for f in row["forms"]]
    legal = [a.kind for a in engine.legal_actions(s, 0) if a.kind != action_forms.RESIGN]
    assert sorted(kinds) == sorted(legal) == sorted([engine.ROLL, engine.MORTGAGE])
    assert [p.partner for p in panel.proposals] == ["Bob", "Carol"]


def test_the_panel_is_empty_for_spectators_and_the_bankrupt() -> None:
    s = fresh()
    assert action_forms.panel(s, None).empty
    s.alive[2] = False
    assert action_forms.panel(s, 2).empty


def test_one_bid_form_from_just_above_the_high_bid_to_all_cash() -> None:
    s = fresh()
    engine.force_dice(s, (1, 2))
    s = after(s, engine.Action(engine.ROLL, 0), engine.Action(engine.DECLINE, 0))
    s = after(s, engine.Action(engine.BID, 0, amount=30))
    panel = action_forms.panel(s, 1)
    (bid,) = [f for f in panel.decision if f.kind == engine.BID]
    assert bid.number is not None and (bid.number.min, bid.number.max) == (31, 1500)
    assert [f.kind for f in panel.decision] == [engine.BID, engine.PASS_BID]


def test_a_counter_offer_is_prefilled_with_the_terms_turned_round() -> None:
    s = engine.setup(fresh(), owners={1: 0, 39: 1})
    terms = engine.Terms(give_props=(1,), take_props=(39,), give_cash=50)
    s = after(s, engine.Action(engine.PROPOSE_TRADE, 0, target=1, terms=terms))
    panel = action_forms.panel(s, 1)
    (offer,) = panel.incoming
    assert offer["terms"]["gives"] == ["Mediterranean Avenue", "$50"]
    counter = offer["counter"]
    assert counter.kind == engine.COUNTER_TRADE and counter.target == offer["id"]
    assert [p["square"] for p in counter.give.properties if p["checked"]] == [39]
    assert [p["square"] for p in counter.take.properties if p["checked"]] == [1]
    assert counter.take.cash_value == 50
    assert [f.kind for f in offer["forms"]] == [engine.ACCEPT_TRADE, engine.REJECT_TRADE]
    assert [f.kind for f in action_forms.panel(s, 0).outgoing[0]["forms"]] == [
        engine.WITHDRAW_TRADE
    ]


def test_property_with_buildings_in_its_group_is_not_tradable() -> None:
    s = engine.setup(fresh(), owners={1: 0, 3: 0, 5: 0}, buildings={1: 1})
    assert action_forms.tradable(s, 0) == [5]


class _Post(dict[str, Any]):
    """Just enough of a QueryDict."""

    def getlist(self, key: str) -> list[str]:
        value = self.get(key, [])
        return value if isinstance(value, list) else [value]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "end_now"}, "not an action you can take"),
        ({"kind": "resign"}, "not an action you can take"),
        ({"kind": "bid", "amount": "12.5"}, "Your bid must be a whole number"),
        ({"kind": "bid"}, "Your bid is missing"),
        ({"kind": "build", "square": "40"}, "The square must be between 0 and 39"),
        ({"kind": "propose_trade", "target": "1", "give_props": ["0"]}, "Choose properties"),
        (
            {"kind": "propose_trade", "target": "1", "give_props": ["5"], "take_props": ["5"]},
            "both sides",
        ),
        ({"kind": "propose_trade", "target": "1", "give_cash": "-3"}, "whole number"),
    ],
)
def test_parse_action_refuses_bad_input_with_a_reason(data: dict[str, Any], message: str) -> None:
    with pytest.raises(action_forms.FormError, match=message):
        action_forms.parse_action(_Post(data))  # type: ignore[arg-type]


def test_parse_action_reads_a_trade() -> None:
    data = _Post(
        kind="propose_trade",
        target="2",
        give_props=["1", "3"],
        take_cash="$1,200",
        give_cards_0="1",
    )
    assert action_forms.parse_action(data) == {  # type: ignore[arg-type]
        "kind": "propose_trade",
        "target": 2,
        "terms": {
            "give_props": [1, 3],
            "take_props": [],
            "give_cash": 0,
            "take_cash": 1200,
            "give_cards": [1, 0],
            "take_cards": [0, 0],
        },
    }


@pytest.mark.django_db
def test_the_broadcast_words_the_new_lines_from_the_write_without_reading_them(
    duel: Game,
) -> None:
    from games import services
    from games.services import play

    cached = mock.patch.object(presenters, "_log_cacheable", return_value=True)
    presenters._LOG_CACHE.clear()
    with cached:
        presenters.log(
            Snapshot.of(duel, state=engine.from_dict(duel.state)), viewer=None
        )  # fills the cache
    # What the write announces for its commit.
    announced: list[Any] = []
    mover = duel.seats.get(number=engine.from_dict(duel.state).turn).user
    with mock.patch.object(play, "announce", announced.append):
        services.submit_action(
            public_id=duel.public_id, user=mover, action={"kind": "roll"}, expected_version=1
        )
    [record] = announced
    with cached, CaptureQueriesContext(connection) as queries:
        snap = Snapshot.of(
            record.game, state=record.state, seats=record.seats, events=record.events
        )
        lines = presenters.log_lines(snap, None)
    assert not queries
    assert any(line["kind"] == "dice" and line["seq"] == 2 for line in lines)
    state = record.state
    presenters._LOG_CACHE.clear()
    assert lines == presenters.log_lines(
        Snapshot.of(Game.objects.get(pk=duel.pk), state=state), None
    )  # read


def test_the_log_cache_drops_the_least_recently_written_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(presenters, "_LOG_CACHE", {})
    monkeypatch.setattr(presenters, "_LOG_CACHE_SIZE", 2)
    line = [{"text": "x", "kind": "k", "seq": 1, "private": False, "turn": 0}]
    presenters._cache_log_lines((1, None), (1, line))
    presenters._cache_log_lines((2, None), (1, line))
    presenters._cache_log_lines((1, None), (2, line))  # game 1 moves again
    presenters._cache_log_lines((3, None), (1, line))
    assert set(presenters._LOG_CACHE) == {(1, None), (3, None)}
