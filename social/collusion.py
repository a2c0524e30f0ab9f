"""The collusion check: an accepted trade in a rated game that hands one
side much of the other's wealth for little in return is flagged with an
automatic report (reason collusion, no reporter), as is a repeated pattern
of lopsided trades between the same two accounts. It never blocks a trade:
it listens to the write path after the commit (``games.services.subscribers``).

A trade is valued with the engine's own trade valuation
(``engine.offer_gain``, what the heuristic bot judges offers by: property
equity, cash, cards and the worth of the colour groups it completes or
breaks) on the position just before it, for both sides. The side that comes
off worse is the giver; the trade is lopsided when the giver loses more than
half of ``COLLUSION_SHARE_PERCENT`` of their net worth (``engine.total_worth``)
to a taker who gains, and flagged when it is more than the whole share.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q

from games import disclosure, engine
from games.models import Game, GameEvent, Seat
from games.services.subscribers import Subscriber
from games.services.write import Committed
from people.models import Report
from people.reports import file_report
from ratings.services import is_rated
from social.evidence import trade_terms
from social.models import LopsidedTrade

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Valuation:
    """Both sides of one accepted trade, valued on the position before it."""

    proposer: int
    recipient: int
    proposer_gain: int
    recipient_gain: int
    giver: int
    taker: int
    loss: int  # what the giver lost by the engine's valuation
    worth: int  # the giver's net worth before the trade

    @property
    def taker_gains(self) -> bool:
        return (self.recipient_gain if self.taker == self.recipient else self.proposer_gain) > 0

    @property
    def share(self) -> float:
        return self.loss / self.worth if self.worth > 0 else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "proposer_gain": self.proposer_gain,
            "recipient_gain": self.recipient_gain,
            "giver_loss": self.loss,
            "giver_worth": self.worth,
            "share_percent": round(100 * self.share, 1),
        }


def value_trade(
    before: engine.State, proposer: int, recipient: int, terms: engine.Terms
) -> Valuation:
    """Value ``terms`` (the proposer's side) on the position ``before`` it."""
    cards = sum(terms.take_cards) - sum(terms.give_cards)
    cash = terms.take_cash - terms.give_cash
    gain_p = engine.offer_gain(
        before, proposer, recipient, terms.take_props, terms.give_props, cash, cards
    )
    gain_r = engine.offer_gain(
        before, recipient, proposer, terms.give_props, terms.take_props, -cash, -cards
    )
    giver, taker = (proposer, recipient) if gain_p <= gain_r else (recipient, proposer)
    loss = -min(gain_p, gain_r)
    return Valuation(
        proposer, recipient, gain_p, gain_r, giver, taker, loss, engine.total_worth(before, giver)
    )


def before_trade(
    after: engine.State, proposer: int, recipient: int, terms: engine.Terms
) -> engine.State:
    """The position just before the trade, rebuilt from the one after it
    (the engine keeps no history): its property, cash and cards handed back.
    Whatever else the same write did after the trade stays."""
    s = engine.from_dict(engine.to_dict(after))
    for sq in terms.give_props:
        s.owner[sq] = proposer
    for sq in terms.take_props:
        s.owner[sq] = recipient
    moved = terms.give_cash - terms.take_cash
    s.cash[proposer] += moved
    s.cash[recipient] -= moved
    for deck in (0, 1):
        n = terms.give_cards[deck] - terms.take_cards[deck]
        s.jail_cards[proposer][deck] += n
        s.jail_cards[recipient][deck] -= n
    return s


def is_lopsided(v: Valuation) -> bool:
    return v.taker_gains and v.loss * 200 > settings.COLLUSION_SHARE_PERCENT * max(v.worth, 1)


def is_flagged(v: Valuation) -> bool:
    return v.taker_gains and v.loss * 100 > settings.COLLUSION_SHARE_PERCENT * max(v.worth, 1)


def on_commit(record: Committed) -> None:
    accepted = [e for e in record.events if e.kind == "trade_accepted" and e.audience_seat is None]
    if not accepted:
        return
    seats = record.seats if record.seats is not None else list(record.game.seats.all())
    if not is_rated(record.game, seats):
        return
    state = record.state
    if state is None:
        stored = Game.objects.values_list("state", flat=True).get(pk=record.game_id)
        if not stored:
            return
        state = engine.from_dict(stored)
    for event in accepted:
        try:
            check_trade(record.game, seats, state, event.payload)
        except Exception:
            logger.exception("The collusion check failed on game %s", record.game_id)


def check_trade(
    game: Game, seats: list[Seat], after: engine.State, payload: dict[str, Any]
) -> None:
    trade_id, proposer = int(payload["trade"]), int(payload["from"])
    recipient = int(payload["player"])
    proposed = (
        GameEvent.objects.filter(game=game, kind=disclosure.PROPOSED, payload__trade=trade_id)
        .values_list("seq", flat=True)
        .first()
    )
    raw = trade_terms(game.pk, proposed) if proposed is not None else None
    users: dict[int, Any] = {s.number: s.user for s in seats if s.user is not None}
    if raw is None or proposer not in users or recipient not in users:
        return  # a bot's seat, or terms we cannot find: nothing to judge
    terms = engine.terms_from_dict(raw)
    v = value_trade(before_trade(after, proposer, recipient, terms), proposer, recipient, terms)
    if not is_lopsided(v):
        return
    giver, taker = users[v.giver], users[v.taker]
    evidence = {
        "game": game.public_id,
        "trade": trade_id,
        "version": proposed,
        "from": users[proposer].username,
        "to": users[recipient].username,
        "giver": giver.username,
        "taker": taker.username,
        "terms": raw,
        "valuation": v.to_dict(),
    }
    if not remember(game, trade_id, giver, taker, v):
        return  # already judged (a redelivered commit)
    if is_flagged(v):
        flag(giver, taker, {**evidence, "why": "share"})
    pair = Q(giver=giver, taker=taker) | Q(giver=taker, taker=giver)
    found = LopsidedTrade.objects.filter(pair)
    if found.count() >= settings.COLLUSION_PATTERN_TRADES:
        games = sorted(set(found.values_list("game__public_id", flat=True)))
        flag(
            giver,
            taker,
            {**evidence, "why": "pattern", "lopsided_trades": found.count(), "games": games},
        )


def remember(game: Game, trade_id: int, giver: Any, taker: Any, v: Valuation) -> bool:
    try:
        with transaction.atomic():
            LopsidedTrade.objects.create(
                game=game, trade=trade_id, giver=giver, taker=taker, loss=v.loss, worth=v.worth
            )
    except IntegrityError:
        return False
    return True


def flag(giver: Any, taker: Any, evidence: dict[str, Any]) -> None:
    """One automatic report against each of the two accounts: feeding and
    being fed are both the offence."""
    for person in (taker, giver):
        file_report(
            reporter=None,
            reported=person,
            reason=Report.Reason.COLLUSION,
            source=Report.Source.COLLUSION_CHECK,
            evidence=evidence,
        )


SUBSCRIBER = Subscriber("collusion", on_commit=on_commit)
