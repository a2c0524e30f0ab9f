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
from .kinds import Check, Do
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


_PAIRS: Final[dict[str, tuple[Check, Do]]] = {
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
    A.CLAIM_RENT: (_c_claim, _d_claim),
    A.EXPIRE_CLAIM: (_c_claim, _d_claim),
    A.END_NOW: (_c_end_now, _d_end_now),
    A.END_CAP: (_c_end_cap, _d_end_cap),
    A.RESIGN: (_c_resign, _d_resign),
    # The kinds whose check, apply and events live in their own module.
    **auction.PAIRS,
    **buildings.PAIRS,
    **money.PAIRS,
    **trade.PAIRS,
}


def _c_seat(s: State, a: A.Action) -> None:
    p = a.player
    if not (0 <= p < s.n and s.alive[p]):
        raise NotYourTurn("You are not playing in this game.")


def _checked(check: Check, do: Do, system: bool) -> Do:
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
_FUSED: Final[dict[str, Do]] = {
    A.BUILD: run_build,
    A.ROLL: run_roll,
    A.END_TURN: run_end_turn,
    A.CLAIM_RENT: run_claim_rent,
}

# The legal actions a kind module lists beyond ``legal``'s own candidates
# (``legal_actions`` appends what each of these gives for the player).
Candidates = Callable[[State, int], list[A.Action]]
LISTED: Final[tuple[Candidates, ...]] = ()

_SYSTEM_KINDS: Final = frozenset({A.END_NOW, A.END_CAP, A.EXPIRE_CLAIM})
# kind -> one function that checks the seat (system actions skip it),
# validates and applies: one call per action from ``step`` (the simulator
# calls these directly).
RUNNERS: Final[dict[str, Do]] = {
    k: _FUSED[k] if k in _FUSED else _checked(c, d, k in _SYSTEM_KINDS)
    for k, (c, d) in _PAIRS.items()
}

assert set(RUNNERS) == A.ALL_KINDS, sorted(A.ALL_KINDS ^ set(RUNNERS))
__all__ = ["A_HOUSE", "apply", "is_legal", "new_game", "step"]
