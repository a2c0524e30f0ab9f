"""The game state: integer-indexed, plain lists, cheap to copy.

Players are seats 0..n-1. The bank is creditor ``BANK`` (-1) and the Free
Parking jackpot is creditor ``POT`` (-2). ``State.copy`` is a structural copy
(lists sliced), never a deepcopy: the hot path of the simulator mutates a
state in place through ``game.step``.
"""

from __future__ import annotations

from typing import Final

from .actions import Terms
from .board import NUM_SQUARES, TOTAL_HOTELS, TOTAL_HOUSES
from .rules import Ruleset

#: 2 added ``generator`` and ``secret``; version 1 states read as splitmix64.
SCHEMA_VERSION: Final = 2

BANK: Final = -1
POT: Final = -2
SYSTEM: Final = -1  # the "player" of system actions (expire_claim, end_now, end_cap)

# Phases of the turn player.
P_ROLL: Final = 0  # must roll (start of turn, in jail, or after doubles)
P_BUY: Final = 1  # landed on unowned property: buy or decline
P_TAX: Final = 2  # Income Tax: choose 200 or 10% before the worth is shown
P_CHOICE: Final = 3  # UK: pay a 10 fine or take a Chance
P_END: Final = 4  # the move is done: build, trade, then end the turn
P_OVER: Final = 5  # the game has ended
PHASE_NAMES: Final = ("roll", "buy", "income_tax", "fine_or_chance", "end_turn", "over")

# Auction kinds.
A_PROPERTY: Final = 0
A_HOUSE: Final = 1
A_HOTEL: Final = 2

# Answers in a building shortage window (``State.wish``).
WISH_WAITING: Final = 1
WISH_YES: Final = 2


_FIELDS: Final = (
    "again",
    "alive",
    "auction",
    "auction_queue",
    "bank_hotels",
    "bank_houses",
    "bank_in",
    "bank_out",
    "bankrupt_order",
    "bld",
    "bids",
    "card_rent",
    "cash",
    "claims",
    "debts",
    "decks",
    "dice",
    "doubles",
    "end_reason",
    "ending",
    "forced_dice",
    "fresh",
    "generator",
    "in_jail",
    "jail_cards",
    "jail_turns",
    "mortgaged",
    "n",
    "names",
    "next_id",
    "owner",
    "pending_sq",
    "phase",
    "placement",
    "played",
    "pos",
    "pot",
    "rng",
    "roll_no",
    "rules",
    "secret",
    "seed",
    "seq",
    "trades",
    "turn",
    "turn_no",
    "values",
    "winner",
    "wish",
)

# Fields added after games were stored: lists of int lists, written only
# while not empty and read as empty from a state without them, so that
# every stored state and its digest stay as they were (``codec``).
LATER_LISTS: Final[tuple[str, ...]] = ()


class State:
    """Everything about a game in progress. See docs/engine.md for fields."""

    __slots__ = _FIELDS

    rules: Ruleset
    names: list[str]
    n: int
    seed: int
    cash: list[int]
    pos: list[int]
    alive: list[bool]
    in_jail: list[bool]
    jail_turns: list[int]
    jail_cards: list[list[int]]  # per player: [chance cards, chest cards]
    owner: list[int]  # per square; -1 unowned / not a property
    mortgaged: list[bool]
    fresh: list[int]  # squares: mortgaged, just changed hands, 10% paid (until a throw)
    bld: list[int]  # 0..4 houses, 5 = hotel
    bank_houses: int
    bank_hotels: int
    decks: list[list[int]]  # card indices, top first
    generator: int  # rng.GEN_SPLITMIX or rng.GEN_KEYED
    secret: str  # hex key of the keyed generator; "" for splitmix64. Never sent to clients.
    rng: int  # splitmix64's state, or the keyed generator's counter
    forced_dice: list[int]  # scripted dice for tests, consumed in pairs
    turn: int
    turn_no: int
    roll_no: int
    phase: int
    doubles: int
    again: bool
    dice: list[int]  # last movement throw [d1, d2]
    pending_sq: int
    card_rent: int  # 0 normal, 1 nearest-railroad (x2), 2 nearest-utility (x10)
    # [kind, square, high, high_bidder, opener, in_0, ..., in_{n-1}]
    # where in_p is 1 while seat p has not passed.
    auction: list[int] | None
    auction_queue: list[int]
    # Sealed-bid auctions: the hidden bids so far, [seat, amount] in the
    # order they came (0 is a pass). Empty otherwise. Never shown before the
    # close: read through ``views.sealed_bid`` (a bidder's own) only.
    bids: list[list[int]]
    debts: list[list[int]]  # [debtor, creditor, amount]
    claims: list[list[int]]  # [id, owner, payer, square, amount, turn_no, roll_no]
    trades: list[tuple[int, int, int, Terms]]  # (id, proposer, recipient, terms)
    placement: list[int] | None  # [player, auction kind, price]
    # A building shortage window: [requester, square, auction kind, w_0, ...,
    # w_{n-1}] where w_q is WISH_WAITING while seat q may still ask for the
    # scarce buildings too, WISH_YES once it did, 0 otherwise.
    wish: list[int] | None
    next_id: int
    bank_out: int
    bank_in: int
    pot: int
    bankrupt_order: list[int]
    ending: bool
    end_reason: str
    winner: int
    values: list[int]
    seq: int
    # Per player, the turns they have ended: kept only with a length cap in
    # turns (``rules.cap_turns``), else empty (and not serialised, so that
    # other states and their digests are as before the field).
    played: list[int]

    def copy(self) -> State:
        c = State.__new__(State)
        c.rules = self.rules
        c.names = self.names[:]
        c.n = self.n
        c.seed = self.seed
        c.cash = self.cash[:]
        c.pos = self.pos[:]
        c.alive = self.alive[:]
        c.in_jail = self.in_jail[:]
        c.jail_turns = self.jail_turns[:]
        c.jail_cards = [x[:] for x in self.jail_cards]
        c.owner = self.owner[:]
        c.mortgaged = self.mortgaged[:]
        c.fresh = self.fresh[:]
        c.bld = self.bld[:]
        c.bank_houses = self.bank_houses
        c.bank_hotels = self.bank_hotels
        c.decks = [d[:] for d in self.decks]
        c.generator = self.generator
        c.secret = self.secret
        c.rng = self.rng
        c.forced_dice = self.forced_dice[:]
        c.turn = self.turn
        c.turn_no = self.turn_no
        c.roll_no = self.roll_no
        c.phase = self.phase
        c.doubles = self.doubles
        c.again = self.again
        c.dice = self.dice[:]
        c.pending_sq = self.pending_sq
        c.card_rent = self.card_rent
        c.auction = None if self.auction is None else self.auction[:]
        c.auction_queue = self.auction_queue[:]
        c.bids = [b[:] for b in self.bids]
        c.debts = [d[:] for d in self.debts]
        c.claims = [x[:] for x in self.claims]
        c.trades = self.trades[:]
        c.placement = None if self.placement is None else self.placement[:]
        c.wish = None if self.wish is None else self.wish[:]
        c.next_id = self.next_id
        c.bank_out = self.bank_out
        c.bank_in = self.bank_in
        c.pot = self.pot
        c.bankrupt_order = self.bankrupt_order[:]
        c.ending = self.ending
        c.end_reason = self.end_reason
        c.winner = self.winner
        c.values = self.values[:]
        c.seq = self.seq
        c.played = self.played[:]
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in _FIELDS)

    __hash__ = None  # type: ignore[assignment]

    @property
    def finished(self) -> bool:
        return self.phase == P_OVER


def blank_state(rules: Ruleset, names: list[str], seed: int) -> State:
    n = len(names)
    s = State.__new__(State)
    s.rules = rules
    s.names = list(names)
    s.n = n
    s.seed = seed
    s.cash = [rules.starting_cash] * n
    s.pos = [0] * n
    s.alive = [True] * n
    s.in_jail = [False] * n
    s.jail_turns = [0] * n
    s.jail_cards = [[0, 0] for _ in range(n)]
    s.owner = [-1] * NUM_SQUARES
    s.mortgaged = [False] * NUM_SQUARES
    s.fresh = []
    s.bld = [0] * NUM_SQUARES
    s.bank_houses = TOTAL_HOUSES
    s.bank_hotels = TOTAL_HOTELS
    s.decks = [list(range(16)), list(range(16))]
    s.generator = 0
    s.secret = ""
    s.rng = 0
    s.forced_dice = []
    s.turn = 0
    s.turn_no = 0
    s.roll_no = 0
    s.phase = P_ROLL
    s.doubles = 0
    s.again = False
    s.dice = [0, 0]
    s.pending_sq = -1
    s.card_rent = 0
    s.auction = None
    s.auction_queue = []
    s.bids = []
    s.debts = []
    s.claims = []
    s.trades = []
    s.placement = None
    s.wish = None
    s.next_id = 1
    s.bank_out = 0
    s.bank_in = 0
    s.pot = 0
    s.bankrupt_order = []
    s.ending = False
    s.end_reason = ""
    s.winner = -1
    s.values = []
    s.seq = 0
    s.played = [0] * n if rules.cap_turns else []
    return s
