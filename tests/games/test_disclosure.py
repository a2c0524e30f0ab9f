"""One whitelist for what leaves the server (``games.disclosure``): a
pending offer's terms are its proposer's and its recipient's only, in the
record, the replay, the page and the API's stream; accepted ones are
public facts; a finished game's record keeps every term for verification."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from api import stream_lines
from games import disclosure, engine, services
from games.models import Game
from games.web.replay import load_replay

pytestmark = pytest.mark.django_db

TERMS = {"give_cash": 660}


def propose(game: Game, proposer: User, recipient_seat: int) -> int:
    game.refresh_from_db()
    action = {"kind": engine.PROPOSE_TRADE, "target": recipient_seat, "terms": TERMS}
    services.submit_action(
        public_id=game.public_id, user=proposer, action=action, expected_version=game.version
    )
    game.refresh_from_db()
    return game.version


def answer(game: Game, user: User, kind: str) -> None:
    game.refresh_from_db()
    [offer] = engine.offers(engine.from_dict(game.state))
    services.submit_action(
        public_id=game.public_id,
        user=user,
        action={"kind": kind, "target": offer.id},
        expected_version=game.version,
    )
    game.refresh_from_db()


def record_as(game: Game, user: User | None) -> dict[str, Any]:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/games/{game.public_id}/record.json")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    return response.json()


def proposal(record: dict[str, Any]) -> dict[str, Any]:
    [found] = [a for a in record["actions"] if a["kind"] == engine.PROPOSE_TRADE]
    return found


def test_a_pending_offers_terms_are_not_in_the_record_logged_out(
    duel: Game, alice: User, no_bot_tasks: Any
) -> None:
    propose(duel, alice, 1)
    record = record_as(duel, None)
    assert "terms" not in proposal(record)
    assert "660" not in str(record["actions"])


def test_a_pending_offers_terms_are_in_its_proposers_and_recipients_records(
    duel: Game, alice: User, bob: User, charlie: User, no_bot_tasks: Any
) -> None:
    propose(duel, alice, 1)
    for party in (alice, bob):
        assert proposal(record_as(duel, party))["terms"]["give_cash"] == 660
    assert "terms" not in proposal(record_as(duel, charlie))


def test_a_rejected_offer_stays_its_parties_and_an_accepted_one_is_public(
    duel: Game, alice: User, bob: User, charlie: User, no_bot_tasks: Any
) -> None:
    propose(duel, alice, 1)
    answer(duel, bob, engine.REJECT_TRADE)
    assert "terms" not in proposal(record_as(duel, charlie))
    assert "terms" in proposal(record_as(duel, bob))
    propose(duel, alice, 1)
    answer(duel, bob, engine.ACCEPT_TRADE)
    proposals = [a for a in record_as(duel, None)["actions"] if a["kind"] == engine.PROPOSE_TRADE]
    assert ["terms" in a for a in proposals] == [False, True]


def test_a_finished_games_record_keeps_every_offers_terms_and_verifies(
    duel: Game, alice: User, bob: User, no_bot_tasks: Any
) -> None:
    propose(duel, alice, 1)
    answer(duel, bob, engine.REJECT_TRADE)
    services.resign(public_id=duel.public_id, user=bob, expected_version=duel.version)
    duel.refresh_from_db()
    assert duel.has_ended
    record = record_as(duel, None)
    assert proposal(record)["terms"]["give_cash"] == 660
    assert record["secret"] == duel.secret
    assert engine.verify_record(record).ok


def test_the_record_shows_no_field_outside_the_whitelist(duel: Game, alice: User) -> None:
    record = load_replay(duel).record()
    assert set(record) <= {*disclosure.RECORD_FIELDS, *disclosure.RECORD_AT_END}
    assert record["secret"] is None


def test_the_api_stream_shows_a_pending_offers_terms_to_both_parties_only(
    duel: Game, alice: User, no_bot_tasks: Any
) -> None:
    version = propose(duel, alice, 1)

    def action_line(seat: int | None) -> dict[str, Any]:
        batch = stream_lines.catch_up(duel.pk, seat, version - 1)
        [events] = [line for line in batch.lines if line["type"] == "events"]
        [line] = [e for e in events["events"] if e["kind"] == "action"]
        return dict(line["action"])

    assert action_line(0)["terms"]["give_cash"] == 660
    assert action_line(1)["terms"]["give_cash"] == 660
    assert "terms" not in action_line(None)


def test_the_api_read_shows_an_open_offer_to_its_parties_only(
    duel: Game, alice: User, bob: User, charlie: User, no_bot_tasks: Any
) -> None:
    from api import reads

    propose(duel, alice, 1)
    seats = {s.number: s for s in duel.seats.all()}
    for seat in (seats[0], seats[1]):
        [offer] = reads.game_view(duel, seat)["private"]["offers"]
        assert offer["terms"]["give_cash"] == 660
    assert reads.game_view(duel, None)["private"] is None
