"""Starting a game and applying actions.

``step`` is the in-place core: it validates the action completely, raising
``IllegalAction`` before touching anything, then mutates the state. The
public ``apply`` copies the state first, so callers never see a change to
their input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from . import actions as A
from . import auction, buildings, money, movement, trade
from .board import PRICE, PROPERTIES, ten_percent
from .cards import CHANCE_DECK, DECKS, FINE_OR_CHANCE
from .core import (
    advance_turn,
    blocked,
    charge,
    fee_creditor,
    finish,
    in_debt,
    owed,
    settle_phase,
    total_worth,
    transfer,
)
from .errors import (
    GameOver,
    IllegalAction,
    NotEnoughCash,
    NotYourTurn,
    RuleViolation,
    UnknownAction,
    WrongPhase,
)
from .events import Event, EventLog, as_events
from .rng import GEN_KEYED, draw_below, secret_key, seed_state, shuffle_state
from .rules import END_LENGTH_CAP, END_TIME, Ruleset, ruleset_from_dict
from .state import (
    A_HOUSE,
    A_PROPERTY,
    BANK,
    P_BUY,
    P_CHOICE,
    P_END,
    P_OVER,
    P_ROLL,
    P_TAX,
    SYSTEM,
    WISH_WAITING,
    State,
    blank_state,
)

_PHASE_WAIT: Final = {
    P_ROLL: "You must roll the dice first.",
    P_BUY: "Decide first whether to buy the property.",
    P_TAX: "Choose first how to pay the Income Tax.",
    P_CHOICE: "Choose first: pay the fine or take a Chance.",
    P_END: "Your move is over: end your turn.",
    P_OVER: "The game is over.",
}


def as_ruleset(rules: Ruleset | str | dict[str, Any]) -> Ruleset:
    return rules if isinstance(rules, Ruleset) else ruleset_from_dict(rules)


def new_game(
    rules: Ruleset | str | dict[str, Any],
    players: list[str],
    seed: int,
    events: list[Event] | None = None,
    *,
    secret: str | None = None,
) -> State:
    """Set up a game: shuffle, roll for first player, deal deeds if the
    ruleset says so. Setup events are appended to ``events`` if given.

    With ``secret`` (hex, 32 to 64 bytes) the game draws from the keyed
    generator and ``seed`` is ignored; without it, from splitmix64 seeded by
    ``seed`` (see ``rng``)."""
    r = as_ruleset(rules)
    if not r.min_players <= len(players) <= r.max_players:
        raise RuleViolation(
            f"This ruleset needs {r.min_players} to {r.max_players} players, not {len(players)}."
        )
    ev: EventLog = []
    s = blank_state(r, [str(p) for p in players], seed)
    if secret is None:
        s.rng = seed_state(seed)
    else:
        try:
            secret_key(secret)
        except ValueError as exc:
            raise RuleViolation(str(exc)) from None
        s.generator = GEN_KEYED
        s.secret = secret.lower()
        s.seed = 0
    shuffle_state(s, s.decks[0])
    shuffle_state(s, s.decks[1])
    # Roll for first player: highest total starts; ties throw again.
    contenders = list(range(s.n))
    while len(contenders) > 1:
        totals = []
        for p in contenders:
            r36 = draw_below(s, 36)
            d1, d2 = r36 // 6 + 1, r36 % 6 + 1
            ev.append(("first_roll", p, (d1, d2)))
            totals.append(d1 + d2)
        best = max(totals)
        contenders = [p for p, t in zip(contenders, totals, strict=True) if t == best]
    first = contenders[0]
    s.turn = first
    ev.append(("first_player", first, ()))
    if r.deal_deeds:
        deeds = list(PROPERTIES)
        shuffle_state(s, deeds)
        for _ in range(r.deal_deeds):
            for i in range(s.n):
                p = (first + i) % s.n
                sq = deeds.pop()
                s.owner[sq] = p
                price = PRICE[sq] if r.deal_deeds_paid else 0
                ev.append(("deal", p, (sq, price)))
                charge(s, p, BANK, price, ev)
    ev.append(("turn_start", first, (0,)))
    if events is not None:
        events.extend(as_events(ev))
    return s


def apply(state: State, action: A.Action) -> tuple[State, list[Event]]:
    """Return the new state and the events; the input state is not changed.
    An illegal action raises an ``IllegalAction`` subclass."""
    s = state.copy()
    ev: EventLog = []
    step(s, action, ev)
    return s, as_events(ev)


def step(s: State, a: A.Action, ev: EventLog) -> None:
    """Validate ``a`` fully, then apply it to ``s`` in place."""
    if s.phase == P_OVER:
        raise GameOver("The game is over.")
    run = RUNNERS.get(a.kind)
    if run is None:
        raise UnknownAction(f"Unknown action {a.kind!r}.")
    run(s, a, ev)  # checks the seat, validates, applies
    s.seq += 1


def is_legal(s: State, a: A.Action) -> bool:
    if s.phase == P_OVER:
        return False
    handler = _PAIRS.get(a.kind)
    if handler is None:
        return False
    if a.kind not in _SYSTEM_KINDS and not (0 <= a.player < s.n and s.alive[a.player]):
        return False
    try:
        handler[0](s, a)
    except IllegalAction:
        return False
    return True


# --- checks -----------------------------------------------------------------


def _turn(s: State, a: A.Action, phase: int) -> None:
    if a.player != s.turn:
        raise NotYourTurn("It is not your turn.")
    if s.placement is not None:
        raise WrongPhase(f"Wait: {s.names[s.placement[0]]} must place the auctioned building.")
    if s.auction is not None:
        raise WrongPhase("Wait: an auction is in progress.")
    if s.debts:
        debtor = s.debts[0][0]
        raise WrongPhase(f"Wait: {s.names[debtor]} must settle a debt first.")
    if s.wish is not None:
        raise WrongPhase("Wait: the other players may still ask for the scarce buildings.")
    if s.phase != phase:
        raise WrongPhase(_PHASE_WAIT[s.phase])


def _raise(err: str, cls: type[IllegalAction] = RuleViolation) -> None:
    if err:
        raise cls(err)


def _c_roll(s: State, a: A.Action) -> None:
    _turn(s, a, P_ROLL)


def jail_fine_allowed(s: State, p: int) -> bool:
    attempts = s.rules.jail_attempts
    return s.in_jail[p] and s.jail_turns[p] < max(1, attempts - 1)


def _c_pay_jail_fine(s: State, a: A.Action) -> None:
    _turn(s, a, P_ROLL)
    if not s.in_jail[a.player]:
        raise WrongPhase("You are not in Jail.")
    if not jail_fine_allowed(s, a.player):
        raise RuleViolation("The fine can no longer be paid before rolling: roll the dice.")
    if s.cash[a.player] < s.rules.jail_fine:
        raise NotEnoughCash("You do not have enough cash to pay the fine.")


def _c_use_jail_card(s: State, a: A.Action) -> None:
    _turn(s, a, P_ROLL)
    if not s.in_jail[a.player]:
        raise WrongPhase("You are not in Jail.")
    cards = s.jail_cards[a.player]
    if a.target not in (-1, 0, 1) or (cards[a.target] if a.target >= 0 else sum(cards)) <= 0:
        raise RuleViolation("You have no such Get Out of Jail Free card.")


def _c_buy(s: State, a: A.Action) -> None:
    _turn(s, a, P_BUY)
    if s.cash[a.player] < PRICE[s.pending_sq]:
        raise NotEnoughCash("You do not have enough cash; raise funds or decline.")


def _c_decline(s: State, a: A.Action) -> None:
    _turn(s, a, P_BUY)


def _c_tax(s: State, a: A.Action) -> None:
    _turn(s, a, P_TAX)


def _c_choice(s: State, a: A.Action) -> None:
    _turn(s, a, P_CHOICE)


def _c_end_turn(s: State, a: A.Action) -> None:
    _turn(s, a, P_END)


def _c_bid(s: State, a: A.Action) -> None:
    au = s.auction
    p = a.player
    if au is not None and auction.is_sealed(s):
        _c_sealed_bid(s, a, au)
        return
    if au is None or not au[5 + p]:
        raise WrongPhase("You are not bidding in an auction.")
    if au[3] == p:
        raise RuleViolation("You already hold the highest bid.")
    if a.kind == A.BID:
        if in_debt(s, p):
            raise RuleViolation("Settle your debt before bidding.")
        if a.amount <= au[2] or a.amount < 1:
            raise RuleViolation(f"A bid must be more than the current {au[2]}.")
        if a.amount > s.cash[p]:
            raise NotEnoughCash("A bid may not exceed your cash.")


def _c_sealed_bid(s: State, a: A.Action, au: list[int]) -> None:
    p = a.player
    if not au[5 + p]:
        if any(b[0] == p for b in s.bids):
            raise RuleViolation("You have already handed in your sealed bid.")
        raise WrongPhase("You are not bidding in this auction.")
    if a.kind == A.BID:
        if a.amount < 0:
            raise RuleViolation("A bid cannot be negative.")
        if a.amount > 0 and in_debt(s, p):
            raise RuleViolation("Settle your debt before bidding.")
        if a.amount > s.cash[p]:
            raise NotEnoughCash(f"A bid may not exceed your cash ({s.rules.currency}{s.cash[p]}).")


def _c_place(s: State, a: A.Action) -> None:
    pl = s.placement
    if pl is None or pl[0] != a.player:
        raise WrongPhase("You have no building to place.")
    if a.kind == A.PLACE_BUILDING:
        _raise(buildings.placement_error(s, a.player, a.square))
        if buildings.build_kind(s, a.square) != pl[1]:
            raise RuleViolation("That site needs the other kind of building.")


def _c_wish(s: State, a: A.Action) -> None:
    w = s.wish
    p = a.player
    if w is None or w[3 + p] != WISH_WAITING:
        raise WrongPhase("You are not being asked about scarce buildings.")
    if s.debts or s.auction is not None or s.placement is not None:
        raise WrongPhase("Wait: the auction, placement or debt comes first.")
    if a.kind == A.DECLARE_WISH and not buildings.could_wish(s, p, w[2]):
        raise RuleViolation("You could not buy one now: nowhere to build it, or too little cash.")


def _c_build(s: State, a: A.Action) -> None:
    _raise(buildings.build_error(s, a.player, a.square))


def _c_sell(s: State, a: A.Action) -> None:
    _raise(buildings.sell_error(s, a.player, a.square))


def _c_sell_group(s: State, a: A.Action) -> None:
    _raise(buildings.sell_group_error(s, a.player, a.target))


def _c_mortgage(s: State, a: A.Action) -> None:
    _raise(buildings.mortgage_error(s, a.player, a.square))


def _c_unmortgage(s: State, a: A.Action) -> None:
    _raise(buildings.unmortgage_error(s, a.player, a.square))


def _c_propose(s: State, a: A.Action) -> None:
    if a.terms is None:
        raise UnknownAction("A trade needs terms.")
    _raise(trade.terms_error(s, a.player, a.target, a.terms))


def _c_answer(s: State, a: A.Action) -> None:
    t = trade.find(s, a.target)
    if t is None:
        raise WrongPhase("That trade offer is no longer open.")
    if a.kind == A.WITHDRAW_TRADE:
        if t[1] != a.player:
            raise NotYourTurn("Only the player who made an offer can withdraw it.")
        return
    if t[2] != a.player:
        raise NotYourTurn("That offer was not made to you.")
    if a.kind == A.ACCEPT_TRADE:
        _raise(trade.terms_error(s, t[1], t[2], t[3], accepting=True))
    elif a.kind == A.COUNTER_TRADE:
        if a.terms is None:
            raise UnknownAction("A counter-offer needs terms.")
        _raise(trade.terms_error(s, a.player, t[1], a.terms))


def _find_claim(s: State, cid: int) -> list[int] | None:
    for c in s.claims:
        if c[0] == cid:
            return c
    return None


def _c_claim(s: State, a: A.Action) -> None:
    c = _find_claim(s, a.target)
    if c is None:
        raise WrongPhase("That rent can no longer be claimed.")
    if (a.kind == A.CLAIM_RENT or a.player != SYSTEM) and c[1] != a.player:
        raise NotYourTurn("That rent is not yours to claim.")


def _c_debt(s: State, a: A.Action) -> None:
    p = a.player
    if not in_debt(s, p):
        raise WrongPhase("You have no debt to settle.")
    if a.kind == A.PAY_DEBT and s.cash[p] < owed(s, p):
        raise NotEnoughCash("You do not have enough cash yet: raise funds or declare bankruptcy.")
    if a.kind == A.DECLARE_BANKRUPTCY and s.cash[p] >= owed(s, p):
        raise RuleViolation("You can pay what you owe, so you cannot declare bankruptcy.")


def _c_resign(s: State, a: A.Action) -> None:
    pass  # any player still in the game may resign at any time


def _d_resign(s: State, a: A.Action, ev: EventLog) -> None:
    ev.append(("resign", a.player, ()))
    money.bankrupt(s, a.player, ev)


def _c_end_now(s: State, a: A.Action) -> None:
    if a.player != SYSTEM:
        raise NotYourTurn("Only the server's clock can end the game.")
    if s.rules.end_condition != END_TIME:
        raise RuleViolation("This game has no time limit.")
    if s.ending:
        raise WrongPhase("The game is already ending.")


def _c_end_cap(s: State, a: A.Action) -> None:
    if a.player != SYSTEM:
        raise NotYourTurn("Only the server's clock can end the game.")
    if not s.rules.cap_days:
        raise RuleViolation("This game has no length cap in days.")


# --- effects ----------------------------------------------------------------


def _d_roll(s: State, a: A.Action, ev: EventLog) -> None:
    movement.roll(s, a.player, ev)
    settle_phase(s)


def _leave_jail(s: State, p: int) -> None:
    s.in_jail[p] = False
    s.jail_turns[p] = 0


def _d_pay_jail_fine(s: State, a: A.Action, ev: EventLog) -> None:
    ev.append(("jail_fine", a.player, (s.rules.jail_fine,)))
    transfer(s, a.player, fee_creditor(s), s.rules.jail_fine)
    _leave_jail(s, a.player)


def _d_use_jail_card(s: State, a: A.Action, ev: EventLog) -> None:
    p = a.player
    deck = a.target if a.target >= 0 else (0 if s.jail_cards[p][0] else 1)
    s.jail_cards[p][deck] -= 1
    s.decks[deck].append(money.jail_card_index(s, deck))
    ev.append(("jail_card", p, (deck,)))
    _leave_jail(s, p)


def _d_buy(s: State, a: A.Action, ev: EventLog) -> None:
    sq = s.pending_sq
    transfer(s, a.player, BANK, PRICE[sq])
    s.owner[sq] = a.player
    s.pending_sq = -1
    ev.append(("buy", a.player, (sq, PRICE[sq])))
    s.phase = P_END
    settle_phase(s)


def _d_decline(s: State, a: A.Action, ev: EventLog) -> None:
    sq = s.pending_sq
    s.pending_sq = -1
    s.phase = P_END
    ev.append(("decline", a.player, (sq,)))
    if s.rules.auctions:
        auction.start(s, A_PROPERTY, sq, a.player, ev)
    settle_phase(s)


def _d_tax(s: State, a: A.Action, ev: EventLog) -> None:
    p = a.player
    s.phase = P_END
    if a.kind == A.INCOME_TAX_PERCENT:
        ev.append(("income_tax_choice", p, (1,)))
        worth = total_worth(s, p)
        ev.append(("worth", p, (worth,)))
        amount = ten_percent(worth)
    else:
        ev.append(("income_tax_choice", p, (0,)))
        amount = s.rules.income_tax
    movement.pay_tax(s, p, s.pos[p], amount, ev)
    settle_phase(s)


def _d_choice(s: State, a: A.Action, ev: EventLog) -> None:
    p = a.player
    s.phase = P_END
    if a.kind == A.TAKE_CHANCE:
        movement.draw(s, p, CHANCE_DECK, ev)
    else:
        fine = next(c[1] for c in DECKS[s.rules.decks][1] if c[0] == FINE_OR_CHANCE)
        ev.append(("pay", p, (fee_creditor(s), fine)))
        charge(s, p, fee_creditor(s), fine, ev)
    settle_phase(s)


def _d_end_turn(s: State, a: A.Action, ev: EventLog) -> None:
    ev.append(("turn_end", a.player, (s.pos[a.player],)))
    advance_turn(s, ev)
    if s.phase != P_OVER:
        ev.append(("turn_start", s.turn, (s.turn_no,)))


def _d_bid(s: State, a: A.Action, ev: EventLog) -> None:
    if a.kind == A.BID:
        auction.bid(s, a.player, a.amount, ev)
    else:
        auction.pass_bid(s, a.player, ev)


def _d_place(s: State, a: A.Action, ev: EventLog) -> None:
    pl = s.placement
    assert pl is not None
    s.placement = None
    if a.kind == A.PLACE_BUILDING:
        buildings.put_building(s, a.square, pl[1])
        ev.append(("place_building", a.player, (a.square,)))
    else:
        transfer(s, BANK, a.player, pl[2])
        ev.append(("forfeit_building", a.player, ()))
    settle_phase(s)


def _d_wish(s: State, a: A.Action, ev: EventLog) -> None:
    buildings.answer_wish(s, a.player, a.kind == A.DECLARE_WISH, ev)
    settle_phase(s)


def _d_build(s: State, a: A.Action, ev: EventLog) -> None:
    buildings.build(s, a.player, a.square, ev)


def _d_sell(s: State, a: A.Action, ev: EventLog) -> None:
    buildings.sell(s, a.player, a.square, ev)


def _d_sell_group(s: State, a: A.Action, ev: EventLog) -> None:
    buildings.sell_group(s, a.player, a.target, ev)


def _d_mortgage(s: State, a: A.Action, ev: EventLog) -> None:
    buildings.mortgage(s, a.player, a.square, ev)


def _d_unmortgage(s: State, a: A.Action, ev: EventLog) -> None:
    buildings.unmortgage(s, a.player, a.square, ev)


def _d_propose(s: State, a: A.Action, ev: EventLog) -> None:
    assert a.terms is not None
    trade.propose(s, a.player, a.target, a.terms, ev)


def _d_answer(s: State, a: A.Action, ev: EventLog) -> None:
    t = trade.find(s, a.target)
    assert t is not None
    if a.kind == A.ACCEPT_TRADE:
        trade.accept(s, a.target, ev)
        return
    trade.close(s, a.target)
    if a.kind == A.WITHDRAW_TRADE:
        ev.append(("trade_withdrawn", a.player, (t[2], t[0])))
        return
    ev.append(("trade_rejected", a.player, (t[1], t[0])))
    if a.kind == A.COUNTER_TRADE:
        assert a.terms is not None
        trade.propose(s, a.player, t[1], a.terms, ev)


def _d_claim(s: State, a: A.Action, ev: EventLog) -> None:
    c = _find_claim(s, a.target)
    assert c is not None
    s.claims.remove(c)
    cid, owner, payer, sq, amount = c[0], c[1], c[2], c[3], c[4]
    if a.kind == A.CLAIM_RENT:
        ev.append(("rent", payer, (owner, sq, amount)))
        charge(s, payer, owner, amount, ev)
    else:
        ev.append(("claim_expired", payer, (owner, cid)))


def _d_debt(s: State, a: A.Action, ev: EventLog) -> None:
    if a.kind == A.PAY_DEBT:
        money.pay_debts(s, a.player, ev)
    elif a.kind == A.DECLARE_BANKRUPTCY:
        money.bankrupt(s, a.player, ev)
    else:
        money.auto_settle(s, a.player, ev)


def _d_end_now(s: State, a: A.Action, ev: EventLog) -> None:
    if s.phase == P_ROLL and s.doubles == 0 and not blocked(s):
        finish(s, "time", ev)
    else:
        s.ending = True
        ev.append(("end_requested", SYSTEM, ()))


def _d_end_cap(s: State, a: A.Action, ev: EventLog) -> None:
    # At once, unlike the time limit: the cap is a deadline the players knew
    # from the start, and a tournament's next round waits for this game.
    ev.append(("length_cap", SYSTEM, (0, s.rules.cap_days)))
    finish(s, END_LENGTH_CAP, ev, settle=True)


_Check = Callable[[State, A.Action], None]
_Do = Callable[[State, A.Action, EventLog], None]

_PAIRS: Final[dict[str, tuple[_Check, _Do]]] = {
    A.ROLL: (_c_roll, _d_roll),
    A.PAY_JAIL_FINE: (_c_pay_jail_fine, _d_pay_jail_fine),
    A.USE_JAIL_CARD: (_c_use_jail_card, _d_use_jail_card),
    A.BUY: (_c_buy, _d_buy),
    A.DECLINE: (_c_decline, _d_decline),
    A.INCOME_TAX_FLAT: (_c_tax, _d_tax),
    A.INCOME_TAX_PERCENT: (_c_tax, _d_tax),
    A.PAY_TEN: (_c_choice, _d_choice),
    A.TAKE_CHANCE: (_c_choice, _d_choice),
    A.END_TURN: (_c_end_turn, _d_end_turn),
    A.BID: (_c_bid, _d_bid),
    A.PASS_BID: (_c_bid, _d_bid),
    A.PLACE_BUILDING: (_c_place, _d_place),
    A.FORFEIT_BUILDING: (_c_place, _d_place),
    A.DECLARE_WISH: (_c_wish, _d_wish),
    A.NO_WISH: (_c_wish, _d_wish),
    A.BUILD: (_c_build, _d_build),
    A.SELL_BUILDING: (_c_sell, _d_sell),
    A.SELL_GROUP_BUILDINGS: (_c_sell_group, _d_sell_group),
    A.MORTGAGE: (_c_mortgage, _d_mortgage),
    A.UNMORTGAGE: (_c_unmortgage, _d_unmortgage),
    A.PROPOSE_TRADE: (_c_propose, _d_propose),
    A.ACCEPT_TRADE: (_c_answer, _d_answer),
    A.REJECT_TRADE: (_c_answer, _d_answer),
    A.WITHDRAW_TRADE: (_c_answer, _d_answer),
    A.COUNTER_TRADE: (_c_answer, _d_answer),
    A.CLAIM_RENT: (_c_claim, _d_claim),
    A.EXPIRE_CLAIM: (_c_claim, _d_claim),
    A.PAY_DEBT: (_c_debt, _d_debt),
    A.DECLARE_BANKRUPTCY: (_c_debt, _d_debt),
    A.AUTO_SETTLE: (_c_debt, _d_debt),
    A.END_NOW: (_c_end_now, _d_end_now),
    A.END_CAP: (_c_end_cap, _d_end_cap),
    A.RESIGN: (_c_resign, _d_resign),
}


def _c_seat(s: State, a: A.Action) -> None:
    p = a.player
    if not (0 <= p < s.n and s.alive[p]):
        raise NotYourTurn("You are not playing in this game.")


def _checked(check: _Check, do: _Do, system: bool) -> _Do:
    """``do`` preceded by the seat check (unless a system action) and ``check``."""
    if system:

        def run_system(s: State, a: A.Action, ev: EventLog) -> None:
            check(s, a)
            do(s, a, ev)

        return run_system

    def run(s: State, a: A.Action, ev: EventLog) -> None:
        p = a.player
        if not (0 <= p < s.n and s.alive[p]):
            raise NotYourTurn("You are not playing in this game.")
        check(s, a)
        do(s, a, ev)

    return run


# The fused functions below for roll, end_turn and claim_rent check the seat
# only on their slow path: the turn player and the owner of an open claim are
# always seated and still in.


def run_roll(s: State, a: A.Action, ev: EventLog) -> None:
    p = a.player
    if (
        p != s.turn
        or s.phase != P_ROLL
        or s.debts
        or s.auction is not None
        or s.placement
        or s.wish is not None
    ):
        _c_seat(s, a)
        _c_roll(s, a)  # raises the precise error
    movement.roll(s, p, ev)
    if s.phase == P_END and s.again:  # settle_phase, inlined
        s.phase = P_ROLL


def run_end_turn(s: State, a: A.Action, ev: EventLog) -> None:
    p = a.player
    if (
        p != s.turn
        or s.phase != P_END
        or s.debts
        or s.auction is not None
        or s.placement
        or s.wish is not None
    ):
        _c_seat(s, a)
        _c_end_turn(s, a)  # raises the precise error
    ev.append(("turn_end", p, (s.pos[p],)))
    advance_turn(s, ev)
    if s.phase != P_OVER:
        ev.append(("turn_start", s.turn, (s.turn_no,)))


def run_claim_rent(s: State, a: A.Action, ev: EventLog) -> None:
    claims = s.claims
    tid = a.target
    for i, c in enumerate(claims):
        if c[0] == tid:
            if c[1] != a.player:
                break
            del claims[i]
            payer, owner = c[2], c[1]
            ev.append(("rent", payer, (owner, c[3], c[4])))
            charge(s, payer, owner, c[4], ev)
            return
    _c_seat(s, a)
    _c_claim(s, a)  # raises the precise error
    raise AssertionError("unreachable")  # pragma: no cover


def run_build(s: State, a: A.Action, ev: EventLog) -> None:
    _c_seat(s, a)
    err = buildings.build_error(s, a.player, a.square)
    if err:
        raise RuleViolation(err)
    buildings.build(s, a.player, a.square, ev)


# The most frequent kinds validate inside one function (one call fewer).
_FUSED: Final[dict[str, _Do]] = {
    A.BUILD: run_build,
    A.ROLL: run_roll,
    A.END_TURN: run_end_turn,
    A.CLAIM_RENT: run_claim_rent,
}

_SYSTEM_KINDS: Final = frozenset({A.END_NOW, A.END_CAP, A.EXPIRE_CLAIM})
# kind -> one function that checks the seat (system actions skip it),
# validates and applies: one call per action from ``step`` (the simulator
# calls these directly).
RUNNERS: Final[dict[str, _Do]] = {
    k: _FUSED[k] if k in _FUSED else _checked(c, d, k in _SYSTEM_KINDS)
    for k, (c, d) in _PAIRS.items()
}

assert set(RUNNERS) == A.ALL_KINDS, sorted(A.ALL_KINDS ^ set(RUNNERS))
__all__ = ["A_HOUSE", "apply", "is_legal", "new_game", "step"]
