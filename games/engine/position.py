"""Setting up a position, as a FEN sets up a chess board.

``setup`` changes what is listed and derives the rest, so a test or a tool
never keeps the books by hand: the bank's building stock follows from the
buildings on the board, money handed out or taken back is counted in
``bank_out`` / ``bank_in`` (money stays conserved), Get Out of Jail Free
cards leave and rejoin their decks, and the result must pass
``check_invariants``. The state given is not changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from .board import (
    HOTEL,
    INCOME_TAX,
    IS_PROPERTY,
    JAIL_SQUARE,
    KIND,
    NUM_SQUARES,
    SITE,
    TOTAL_HOTELS,
    TOTAL_HOUSES,
)
from .cards import DECKS, JAIL_FREE
from .errors import SetupError
from .invariants import check_invariants
from .state import P_BUY, P_CHOICE, P_END, P_OVER, P_ROLL, P_TAX, State

_PHASES: Final = (P_ROLL, P_BUY, P_TAX, P_CHOICE, P_END)


def setup(
    state: State,
    *,
    cash: Mapping[int, int] | None = None,
    owners: Mapping[int, int] | None = None,
    buildings: Mapping[int, int] | None = None,
    mortgaged: Mapping[int, bool] | Iterable[int] | None = None,
    positions: Mapping[int, int] | None = None,
    jail: Mapping[int, int | None] | None = None,
    jail_cards: Mapping[int, tuple[int, int]] | None = None,
    deck_tops: Mapping[int, Sequence[int]] | None = None,
    pot: int | None = None,
    turn: int | None = None,
    phase: int | None = None,
    doubles: int | None = None,
) -> State:
    """A copy of ``state`` with the position changed as given.

    Only what is given changes; keys are seats or squares:

    * ``cash``: seat -> cash. The difference is paid out by, or into, the bank.
    * ``owners``: square -> seat, or -1 to give it back to the bank.
    * ``buildings``: square -> 0 to 4 houses (``houses_per_hotel``), or
      ``HOTEL``. The bank's stock is what is not on the board.
    * ``mortgaged``: squares to mortgage, or square -> True / False.
    * ``positions``: seat -> square.
    * ``jail``: seat -> turns already spent in Jail (0 just sent there), or
      None to let them out (they stay on the Jail square, just visiting).
    * ``jail_cards``: seat -> (Chance, Community Chest) Get Out of Jail Free
      cards held; the cards leave their deck, or go back under it.
    * ``deck_tops``: deck (0 Chance, 1 Community Chest) -> card indices to
      put on top, first drawn first.
    * ``pot``: the Free Parking jackpot (taken from, or returned to, the bank).
    * ``turn``: whose turn it is; ``phase``: ``P_ROLL``, ``P_BUY`` (the
      square the turn player stands on, which must be for sale), ``P_TAX``
      (the turn player stands on Income Tax), ``P_CHOICE`` or ``P_END``.
      Giving ``turn`` alone starts that player's turn (``P_ROLL``).
    * ``doubles``: doubles the turn player has thrown in a row this turn (a
      third one sends them to Jail when ``third_doubles_to_jail``).

    Raises ``SetupError`` (a ``ValueError``) when the result is impossible.
    """
    s = state.copy()
    if s.phase == P_OVER:
        raise SetupError("The game is over.")
    if cash is not None:
        for p, amount in cash.items():
            _seat(s, p)
            if amount < 0:
                raise SetupError(f"Cash cannot be negative (seat {p}: {amount}).")
            _pay_out(s, amount - s.cash[p])
            s.cash[p] = amount
    if pot is not None:
        if pot < 0:
            raise SetupError(f"The pot cannot be negative ({pot}).")
        _pay_out(s, pot - s.pot)
        s.pot = pot
    if owners is not None:
        for sq, p in owners.items():
            _property(sq)
            if p != -1:
                _seat(s, p)
            s.owner[sq] = p
            if p == -1:
                s.bld[sq] = 0
                s.mortgaged[sq] = False
    if mortgaged is not None:
        marks = (
            mortgaged.items()
            if isinstance(mortgaged, Mapping)
            else [(sq, True) for sq in mortgaged]
        )
        for sq, flag in marks:
            _property(sq)
            s.mortgaged[sq] = bool(flag)
    if buildings is not None:
        hph = s.rules.houses_per_hotel
        for sq, level in buildings.items():
            _property(sq)
            if level and KIND[sq] != SITE:
                raise SetupError(f"Square {sq} is not a site: only sites take buildings.")
            if not (0 <= level <= hph or level == HOTEL):
                raise SetupError(
                    f"Square {sq}: a level is 0 to {hph} houses or HOTEL ({HOTEL}), not {level}."
                )
            s.bld[sq] = level
    if positions is not None:
        for p, sq in positions.items():
            _seat(s, p)
            if not 0 <= sq < NUM_SQUARES:
                raise SetupError(f"There is no square {sq}.")
            s.pos[p] = sq
    if jail is not None:
        for p, turns in jail.items():
            _seat(s, p)
            if turns is None:
                s.in_jail[p] = False
                s.jail_turns[p] = 0
                continue
            if not 0 <= turns < max(1, s.rules.jail_attempts):
                raise SetupError(
                    f"Turns in Jail are 0 to {s.rules.jail_attempts - 1}, not {turns}."
                )
            s.in_jail[p] = True
            s.jail_turns[p] = turns
            s.pos[p] = JAIL_SQUARE
    if jail_cards is not None:
        for p, held in jail_cards.items():
            _seat(s, p)
            for deck in (0, 1):
                _hold_jail_cards(s, p, deck, held[deck])
    if deck_tops is not None:
        for deck, top in deck_tops.items():
            _stack(s, deck, top)
    if turn is not None:
        _seat(s, turn)
        if turn != s.turn:
            s.turn = turn
            s.doubles = 0
            s.again = False
            if phase is None:
                phase = P_ROLL
    if phase is not None:
        _set_phase(s, phase)
    if doubles is not None:
        _set_doubles(s, doubles)
    _restock(s)
    s.fresh = [sq for sq in s.fresh if s.mortgaged[sq] and s.owner[sq] >= 0]
    errors = check_invariants(s)
    if errors:
        raise SetupError("Impossible position: " + "; ".join(errors) + ".")
    return s


def _seat(s: State, p: int) -> None:
    if not 0 <= p < s.n:
        raise SetupError(f"There is no seat {p}.")
    if not s.alive[p]:
        raise SetupError(f"Seat {p} is out of the game.")


def _property(sq: int) -> None:
    if not (0 <= sq < NUM_SQUARES and IS_PROPERTY[sq]):
        raise SetupError(f"Square {sq} is not a property.")


def _pay_out(s: State, amount: int) -> None:
    """Money into play from the bank (or, negative, back to it)."""
    if amount > 0:
        s.bank_out += amount
    else:
        s.bank_in -= amount


def _restock(s: State) -> None:
    houses = hotels = 0
    for sq in range(NUM_SQUARES):
        b = s.bld[sq]
        if b == HOTEL:
            hotels += 1
        else:
            houses += b
    if houses > TOTAL_HOUSES:
        raise SetupError(f"{houses} houses asked for; there are only {TOTAL_HOUSES}.")
    if hotels > TOTAL_HOTELS:
        raise SetupError(f"{hotels} hotels asked for; there are only {TOTAL_HOTELS}.")
    s.bank_houses = TOTAL_HOUSES - houses
    s.bank_hotels = TOTAL_HOTELS - hotels


def _hold_jail_cards(s: State, p: int, deck: int, count: int) -> None:
    cards = DECKS[s.rules.decks][deck]
    jail_free = [i for i, c in enumerate(cards) if c[0] == JAIL_FREE]
    if count < 0:
        raise SetupError(f"Seat {p} cannot hold {count} cards.")
    d = s.decks[deck]
    while s.jail_cards[p][deck] > count:
        # Back under the deck, as when a card is used.
        back = next(i for i in jail_free if i not in d)
        d.append(back)
        s.jail_cards[p][deck] -= 1
    while s.jail_cards[p][deck] < count:
        in_deck = [i for i in jail_free if i in d]
        if not in_deck:
            raise SetupError(f"No Get Out of Jail Free card is left in deck {deck} for seat {p}.")
        d.remove(in_deck[0])
        s.jail_cards[p][deck] += 1


def _stack(s: State, deck: int, top: Sequence[int]) -> None:
    if deck not in (0, 1):
        raise SetupError(f"There is no deck {deck} (0 Chance, 1 Community Chest).")
    d = s.decks[deck]
    missing = [c for c in top if c not in d]
    if missing:
        raise SetupError(f"Cards {missing} are not in deck {deck} (held, or no such card).")
    if len(set(top)) != len(top):
        raise SetupError(f"Cards {list(top)} repeat a card.")
    s.decks[deck] = list(top) + [c for c in d if c not in top]


def _set_doubles(s: State, doubles: int) -> None:
    if doubles < 0:
        raise SetupError(f"Doubles in a row cannot be negative ({doubles}).")
    if doubles > 2 and s.rules.third_doubles_to_jail:
        raise SetupError(f"Doubles in a row are 0 to 2 (a third sends to Jail), not {doubles}.")
    s.doubles = doubles


def _set_phase(s: State, phase: int) -> None:
    if phase not in _PHASES:
        raise SetupError(f"Phase {phase} cannot be set up.")
    p = s.turn
    sq = s.pos[p]
    s.pending_sq = -1
    if phase == P_BUY:
        if not IS_PROPERTY[sq] or s.owner[sq] != -1:
            raise SetupError(f"Seat {p} stands on square {sq}, which is not for sale.")
        s.pending_sq = sq
    elif phase == P_TAX and (KIND[sq] != INCOME_TAX or not s.rules.income_tax_choice):
        raise SetupError(f"Seat {p} does not stand on an Income Tax with a choice.")
    s.phase = phase
