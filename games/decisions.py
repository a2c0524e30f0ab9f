"""One entry per kind of decision: everything the site says and does about it.

Each entry holds the words the timers, the notices and the pending list use
for it, the actions that answer it (the action panel shows their forms in
this registry's order), how its clock runs, what the server does when its
deadline passes, and the standing order that may answer it.

Adding a decision kind: the engine rule (its ``D_*`` kind in
``engine.DECISION_KINDS`` and its actions), one entry here, and its
actions' entries in ``games.action_kinds``. An entry states its clock, its
timeout default and its standing order in so many words (they have no
defaults); ``tests/games/test_decisions.py`` fails, naming the kind, until
the entry is there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any, Final

from games import action_kinds, engine
from games.standing_orders import auction_action, clean, jail_action
from games.wording import AUCTION_ITEMS, fine_or_chance_amount, money, square_name

TIME_LIMIT = "time_limit"  # not a player's decision: the game's own end
# Nor this: a game's length cap in days (``Ruleset.cap_days``) runs out.
LENGTH_CAP = engine.END_LENGTH_CAP
# The deadlines of the game's own end, due for everyone (``engine.SYSTEM``).
GAME_END_KINDS = frozenset({TIME_LIMIT, LENGTH_CAP})

# Pending text: "Alice must roll the dice." (state, the decision).
Describe = Callable[[engine.State, engine.Pending], str]
# The default when the deadline passes (state, player, the row's ref).
Timeout = Callable[[engine.State, int, str], engine.Action]
# A standing order's answer (state, decision, the cleaned orders, a finder of
# legal actions by kind and fields), or None.
Finder = Callable[..., engine.Action | None]
Standing = Callable[[engine.State, engine.Pending, dict[str, Any], Finder], engine.Action | None]


def _engine_default(state: engine.State, player: int, ref: str) -> engine.Action:
    return engine.timeout_action(state, player)


# How long a decision's clock runs when it arises (``deadlines.allowance``):
# the turn's time (or the player's time bank), one of the game's windows
# (the ``TimerSettings`` field named), a short window no longer than an
# auction's nor than a turn, or the game's own end (``services.clocks``).
TURN: Final = "turn"
SHORT: Final = "short"
GAME_END: Final = "game_end"
CLAIM_WINDOW: Final = "claim_window_seconds"
BID_WINDOW: Final = "bid_window_seconds"
TRADE_EXPIRY: Final = "trade_expiry_seconds"
CLOCKS: Final = frozenset({TURN, SHORT, GAME_END, CLAIM_WINDOW, BID_WINDOW, TRADE_EXPIRY})


@dataclass(frozen=True)
class DecisionKind:
    kind: str
    label: str  # the timer's words: "Alice: buy or decline, 3 min left"
    words: str  # a person's notice: "you must <words> by ..."
    describe: Describe  # the pending list's sentence
    _: KW_ONLY
    clock: str  # how long it runs (``CLOCKS``)
    timeout: Timeout  # what the server plays when the deadline passes
    standing: Standing | None  # the standing order that may answer it
    answers: tuple[str, ...] = ()  # the action kinds that answer it, panel order
    # The clock runs from when it arose, whoever acts meanwhile, until the
    # window closes (a claim, a trade offer, the time limit).
    window: bool = False
    # An action that starts the clock again for everyone still to answer:
    # only a bid, because each new high bid is a new question for the other
    # bidders (top it or not) and binds the bidder to pay it, so the
    # restarts are bounded by the bidders' cash. Nothing else restarts a
    # clock: a decision's deadline is set once, when it arises, and the
    # optional moves made while it is open (building, mortgaging, trading,
    # raising funds, another player's answer) never extend it. Only an
    # answer of its own player (``answers``) that leaves the same decision
    # open again makes a new one (a roll of doubles, one of several debts
    # paid); see ``keeps_clock``.
    restarted_by: str | None = None
    # Holds up the game; only these count towards a take-over and send email.
    blocking: bool = True


# --- what each kind says --------------------------------------------------------


def _roll(s: engine.State, d: engine.Pending) -> str:
    again = " again (doubles)" if s.doubles else ""
    return f"{s.names[d.player]} must roll the dice{again}."


def _jail(s: engine.State, d: engine.Pending) -> str:
    return f"{s.names[d.player]} is in Jail: pay the fine, use a card, or roll for doubles."


def _buy(s: engine.State, d: engine.Pending) -> str:
    rules = s.rules
    return (
        f"{s.names[d.player]} must decide whether to buy {square_name(rules, d.ref)} "
        f"for {money(rules, engine.PRICE[d.ref])}."
    )


def _bid(s: engine.State, d: engine.Pending) -> str:
    return f"{s.names[d.player]} may bid or pass in the auction."


def _sealed_bid(s: engine.State, d: engine.Pending) -> str:
    return f"{s.names[d.player]} may hand in one sealed bid (or pass) in the auction."


def _income_tax(s: engine.State, d: engine.Pending) -> str:
    return (
        f"{s.names[d.player]} must choose how to pay Income Tax: "
        f"{money(s.rules, s.rules.income_tax)} or 10% of total worth."
    )


def _fine_or_chance(s: engine.State, d: engine.Pending) -> str:
    fine = money(s.rules, fine_or_chance_amount(s.rules))
    return f"{s.names[d.player]} must choose: pay a {fine} fine or take a Chance."


def _end_turn(s: engine.State, d: engine.Pending) -> str:
    return f"{s.names[d.player]} may build, trade or mortgage, then must end the turn."


def _place(s: engine.State, d: engine.Pending) -> str:
    pl = engine.placement(s)
    item = AUCTION_ITEMS[pl.kind] if pl else "building"
    return f"{s.names[d.player]} must place the {item} won at auction, or forfeit it."


def _wish(s: engine.State, d: engine.Pending) -> str:
    sh = engine.shortage(s)
    name = s.names[d.player]
    if sh is None:
        return f"{name} may ask for the Bank's scarce buildings too."
    item = "hotels" if sh.kind == engine.A_HOTEL else "houses"
    return (
        f"{name} may ask to buy {item} too: {s.names[sh.requester]} asked to build on "
        f"{square_name(s.rules, sh.square)} and the Bank is short of {item}."
    )


def _trade(s: engine.State, d: engine.Pending) -> str:
    name = s.names[d.player]
    for t in engine.offers(s):
        if t.id == d.ref:
            return f"{name} must answer {s.names[t.proposer]}'s trade offer (#{t.id})."
    return f"{name} must answer a trade offer."


def _claim(s: engine.State, d: engine.Pending) -> str:
    name, rules = s.names[d.player], s.rules
    for c in engine.claims(s):
        if c.id == d.ref:
            return (
                f"{name} may claim {money(rules, c.amount)} rent from {s.names[c.payer]} "
                f"for {square_name(rules, c.square)}."
            )
    return f"{name} may claim rent."


def _debt(s: engine.State, d: engine.Pending) -> str:
    return (
        f"{s.names[d.player]} owes {money(s.rules, engine.owed(s, d.player))} and must "
        "raise funds, pay, or declare bankruptcy."
    )


def _time_limit(s: engine.State, d: engine.Pending) -> str:
    return "The game ends when its time limit is reached."


def _length_cap(s: engine.State, d: engine.Pending) -> str:
    return f"The game ends by net worth when its {s.rules.cap_days} days are up."


# --- what the server does when the deadline passes -------------------------------


def _pass_bid(s: engine.State, player: int, ref: str) -> engine.Action:
    return engine.Action(engine.PASS_BID, player)


def _reject_trade(s: engine.State, player: int, ref: str) -> engine.Action:
    return engine.Action(engine.REJECT_TRADE, player, target=int(ref))


def _expire_claim(s: engine.State, player: int, ref: str) -> engine.Action:
    return engine.Action(engine.EXPIRE_CLAIM, engine.SYSTEM, target=int(ref))


def _end_now(s: engine.State, player: int, ref: str) -> engine.Action:
    return engine.Action(engine.END_NOW, engine.SYSTEM)


def _end_cap(s: engine.State, player: int, ref: str) -> engine.Action:
    return engine.Action(engine.END_CAP, engine.SYSTEM)


# --- the standing orders that answer it ------------------------------------------


def _claim_order(
    s: engine.State, d: engine.Pending, o: dict[str, Any], find: Finder
) -> engine.Action | None:
    return find(engine.CLAIM_RENT, target=d.ref) if o["claim_rent"] else None


def _buy_order(
    s: engine.State, d: engine.Pending, o: dict[str, Any], find: Finder
) -> engine.Action | None:
    keep = o["buy_min_cash_left"]
    if keep is None or s.cash[d.player] - engine.PRICE[d.ref] < keep:
        return None
    return find(engine.BUY)


def _bid_order(
    s: engine.State, d: engine.Pending, o: dict[str, Any], find: Finder
) -> engine.Action | None:
    return auction_action(s, d.player, o, find) if o["auction"] else None


def _no_wish(s: engine.State, player: int, ref: str) -> engine.Action:
    return engine.Action(engine.NO_WISH, player)


def _wish_order(
    s: engine.State, d: engine.Pending, o: dict[str, Any], find: Finder
) -> engine.Action | None:
    """The auction order answers at once: who passes building auctions (or
    bids only up to a printed price, which buildings lack) has no wish; who
    bids up to an amount wants one if it could pay the lowest bid."""
    choice = o["auction"]
    if choice in ("pass", "printed"):
        return find(engine.NO_WISH)
    if choice == "upto":
        if o["auction_max"] >= 1:
            return find(engine.DECLARE_WISH) or find(engine.NO_WISH)
        return find(engine.NO_WISH)
    return None


def _jail_order(
    s: engine.State, d: engine.Pending, o: dict[str, Any], find: Finder
) -> engine.Action | None:
    return jail_action(o["jail"], find) if o["jail"] else None


# In the order the action panel shows their forms: what blocks the game
# first, ending the turn last.
_ENTRIES = (
    DecisionKind(
        engine.D_DEBT, "raise funds", "raise funds", _debt,
        answers=(engine.PAY_DEBT, engine.AUTO_SETTLE, engine.DECLARE_BANKRUPTCY),
        clock=TURN, timeout=_engine_default, standing=None,
    ),
    DecisionKind(
        engine.D_PLACE, "place a building", "place a building", _place,
        answers=(engine.PLACE_BUILDING, engine.FORFEIT_BUILDING),
        clock=TURN, timeout=_engine_default, standing=None,
    ),
    DecisionKind(
        engine.D_BID, "bid or pass", "bid or pass in an auction", _bid,
        answers=(engine.BID, engine.PASS_BID), restarted_by=engine.BID,
        clock=BID_WINDOW, timeout=_pass_bid, standing=_bid_order,
    ),
    # One hidden bid each: the clock runs from the auction's start, others'
    # bids do not restart it (no ``restarted_by``).
    DecisionKind(
        engine.D_SEALED_BID, "sealed bid", "hand in a sealed bid in an auction", _sealed_bid,
        answers=(engine.BID, engine.PASS_BID),
        clock=BID_WINDOW, timeout=_pass_bid, standing=_bid_order,
    ),
    # A building shortage: the others may ask for the scarce buildings too
    # (003 "two or more players wish to buy"); the deadline is short and no
    # answer means no wish.
    DecisionKind(
        engine.D_WISH, "ask for scarce buildings", "say whether you want scarce buildings",
        _wish, answers=(engine.DECLARE_WISH, engine.NO_WISH),
        clock=SHORT, timeout=_no_wish, standing=_wish_order,
    ),
    # A claim can lapse with the next throw: claim before rolling.
    DecisionKind(
        engine.D_CLAIM, "claim rent", "claim rent", _claim,
        answers=(engine.CLAIM_RENT, engine.EXPIRE_CLAIM), window=True, blocking=False,
        clock=CLAIM_WINDOW, timeout=_expire_claim, standing=_claim_order,
    ),
    DecisionKind(
        engine.D_ROLL, "roll", "roll the dice", _roll, answers=(engine.ROLL,),
        clock=TURN, timeout=_engine_default, standing=None,
    ),
    DecisionKind(
        engine.D_JAIL, "get out of Jail", "get out of Jail", _jail,
        answers=(engine.ROLL, engine.PAY_JAIL_FINE, engine.USE_JAIL_CARD),
        clock=TURN, timeout=_engine_default, standing=_jail_order,
    ),
    DecisionKind(
        engine.D_BUY, "buy or decline", "decide on a purchase", _buy,
        answers=(engine.BUY, engine.DECLINE),
        clock=TURN, timeout=_engine_default, standing=_buy_order,
    ),
    DecisionKind(
        engine.D_INCOME_TAX, "Income Tax", "choose how to pay Income Tax", _income_tax,
        answers=(engine.INCOME_TAX_FLAT, engine.INCOME_TAX_PERCENT),
        clock=TURN, timeout=_engine_default, standing=None,
    ),
    DecisionKind(
        engine.D_FINE_OR_CHANCE, "fine or Chance", "choose a fine or a Chance", _fine_or_chance,
        answers=(engine.PAY_TEN, engine.TAKE_CHANCE),
        clock=TURN, timeout=_engine_default, standing=None,
    ),
    # An offer never holds up the game: the turns go on around it (the engine
    # blocks only on debts, auctions and placements), and one left unanswered
    # is rejected when its window closes (its row, found by the beat's sweep).
    DecisionKind(
        engine.D_TRADE, "answer a trade", "answer a trade offer", _trade,
        answers=(engine.ACCEPT_TRADE, engine.REJECT_TRADE), window=True, blocking=False,
        clock=TRADE_EXPIRY, timeout=_reject_trade, standing=None,
    ),
    DecisionKind(
        engine.D_END_TURN, "end the turn", "end your turn", _end_turn, answers=(engine.END_TURN,),
        clock=TURN, timeout=_engine_default, standing=None,
    ),
    DecisionKind(
        TIME_LIMIT, "the game ends (time limit)", "see the game end (time limit)", _time_limit,
        window=True, blocking=False, clock=GAME_END, timeout=_end_now, standing=None,
    ),
    DecisionKind(
        LENGTH_CAP, "the game ends (length cap)", "see the game end (length cap)", _length_cap,
        window=True, blocking=False, clock=GAME_END, timeout=_end_cap, standing=None,
    ),
)  # fmt: skip

KINDS: dict[str, DecisionKind] = {entry.kind: entry for entry in _ENTRIES}
WINDOW_KINDS = frozenset(k for k, entry in KINDS.items() if entry.window)
NON_BLOCKING_KINDS = frozenset(k for k, entry in KINDS.items() if not entry.blocking)
# Every answering action kind, in the order the action panel shows them.
ANSWER_ORDER = tuple(dict.fromkeys(kind for entry in _ENTRIES for kind in entry.answers))


def _of(kind: str) -> DecisionKind:
    # A kind from an older deploy's rows still reads sensibly.
    found = KINDS.get(kind)
    if found is not None:
        return found
    words = kind.replace("_", " ")
    return DecisionKind(
        kind,
        words,
        words,
        lambda s, d: f"{s.names[d.player]} must decide ({words}).",
        clock=TURN,
        timeout=_engine_default,
        standing=None,
    )


def label(kind: str) -> str:
    return _of(kind).label


def words(kind: str) -> str:
    return _of(kind).words


def describe(state: engine.State, pending: engine.Pending) -> str:
    return _of(pending.kind).describe(state, pending)


def played(action_kind: str) -> str:
    """The timer's move for a player, as their notice names it ("the timer
    played Pass for you"): the kind in the action panel's words."""
    return action_kinds.label(action_kind)


def keeps_clock(kind: str, player: int, actor: int | None, action_kind: str) -> bool:
    """Whether a decision still open after a move keeps its deadline.

    The clock belongs to the decision, not to the last click: it keeps its
    deadline through every optional move (a mortgage and its undoing, a
    building, a trade offer), whoever makes it. It gets a new one only when
    its player answered it and the same decision arose again (doubles: roll
    again), or when its kind's ``restarted_by`` action was made (a bid)."""
    entry = _of(kind)
    if entry.window:
        return True
    if entry.restarted_by is not None and action_kind == entry.restarted_by:
        return False
    return not answers(kind, player, actor, action_kind)


def answers(kind: str, player: int, actor: int | None, action_kind: str) -> bool:
    """Whether ``actor``'s move of ``action_kind`` answers ``player``'s
    decision of ``kind`` (rather than being an optional move meanwhile)."""
    return actor == player and action_kind in _of(kind).answers


def timeout_action(state: engine.State, kind: str, player: int, ref: str) -> engine.Action:
    """The default for this very decision when its deadline passes."""
    return _of(kind).timeout(state, player, ref)


def standing_action(state: engine.State, player: int, orders: Any) -> engine.Action | None:
    """The action ``player``'s standing orders give for their decisions now."""
    o = clean(orders)
    mine = [p for p in engine.pending_decisions(state) if p.player == player]
    rolling = o["auto_roll"] and [d.kind for d in mine] == [engine.D_ROLL]
    if not rolling and all(_of(d.kind).standing is None for d in mine):
        return None  # no order could answer: the legal moves are not listed
    legal = engine.legal_actions(state, player)

    def find(kind: str, **match: int) -> engine.Action | None:
        for a in legal:
            if a.kind == kind and all(getattr(a, k) == v for k, v in match.items()):
                return a
        return None

    for d in mine:
        order = _of(d.kind).standing
        answer = order(state, d, o, find) if order is not None else None
        if answer is not None:
            return answer
    if rolling:
        return find(engine.ROLL)
    return None


def clock(kind: str) -> str:
    """How long a decision of ``kind`` runs (``CLOCKS``)."""
    return _of(kind).clock


def missing_kinds() -> list[str]:
    """Why the registry is incomplete, one line per decision kind."""
    problems = [
        f"decision kind {k!r} has no entry in games/decisions.py"
        for k in engine.DECISION_KINDS
        if k not in KINDS
    ]
    problems += [
        f"decision kind {k!r}: unknown clock {entry.clock!r}"
        for k, entry in KINDS.items()
        if entry.clock not in CLOCKS
    ]
    for k, entry in KINDS.items():
        for answer in entry.answers:
            place = action_kinds.KINDS.get(answer)
            if place is None or place.place not in (action_kinds.DECISION, action_kinds.ANSWER):
                problems.append(
                    f"decision kind {k!r} is answered by {answer!r}, which "
                    "games/action_kinds.py places neither with the decisions nor as an answer"
                )
    decided = {a for entry in KINDS.values() for a in entry.answers}
    problems += [
        f"action kind {a!r} is placed with the decisions but answers none"
        for a in sorted(action_kinds.kinds_at(action_kinds.DECISION) - decided)
    ]
    return problems
