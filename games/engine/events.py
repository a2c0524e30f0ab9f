"""Events: cheap tuples recording what happened, rendered lazily.

An event is ``Event(kind, player, args)``. ``EVENT_FIELDS[kind]`` names the
args, so ``to_dict`` gives a readable JSON object; ``render_event`` makes one
log line in the edition's names and currency.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from .board import square_name
from .cards import DECK_NAMES, DECKS
from .rules import Ruleset

EVENT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "first_roll": ("d1", "d2"),
    "first_player": (),
    "deal": ("square", "price"),
    "turn_start": ("turn_no",),
    "dice": ("d1", "d2"),
    "move": ("from", "to"),
    "salary": ("amount",),
    "speeding": (),
    "jail": (),
    "jail_fine": ("amount",),
    "jail_card": ("deck",),
    "jail_out": (),
    "jail_stay": ("attempts",),
    "buy": ("square", "price"),
    "decline": ("square",),
    "auction_start": ("item", "square"),
    "bid": ("amount",),
    "pass_bid": (),
    "sealed_bid": (),
    "sealed_reveal": ("amount",),
    "auction_won": ("item", "square", "amount"),
    "auction_unsold": ("item", "square"),
    "rent": ("owner", "square", "amount"),
    "no_rent": ("owner", "square"),
    "claim_open": ("owner", "square", "amount", "claim"),
    "claim_expired": ("owner", "claim"),
    "card": ("deck", "card"),
    "income_tax_choice": ("percent",),
    "worth": ("worth",),
    "tax": ("square", "amount"),
    "pay": ("creditor", "amount"),
    "collect": ("amount",),
    "build": ("square", "level", "cost"),
    "sell_building": ("square", "level", "refund"),
    "mortgage": ("square", "amount"),
    "unmortgage": ("square", "amount"),
    "interest": ("square", "amount"),
    "transfer": ("to", "square"),
    "trade_proposed": ("to", "trade"),
    "trade_accepted": ("from", "trade"),
    "trade_rejected": ("from", "trade"),
    "trade_withdrawn": ("to", "trade"),
    "trade_cancelled": ("trade",),
    "debt": ("creditor", "amount"),
    "debt_paid": ("amount",),
    "bankrupt": ("creditor",),
    "resign": (),
    "free_parking": ("amount",),
    "place_building": ("square",),
    "forfeit_building": (),
    "shortage": ("item", "square", "stock"),
    "wish": ("item",),
    "no_wish": ("item",),
    "build_lapsed": ("square",),
    "turn_end": ("square",),
    "end_requested": (),
    "turn_limit": ("turns",),
    "length_cap": ("rounds", "days"),
    "game_over": ("reason",),
}


class Event(NamedTuple):
    kind: str
    player: int
    args: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "player": self.player}
        d.update(zip(EVENT_FIELDS.get(self.kind, ()), self.args, strict=False))
        return d


# Inside the engine, events are appended to an ``EventLog`` as plain tuples
# ``(kind, player, args)`` (cheap on the hot path); the public ``apply``,
# ``new_game`` and ``replay`` hand out ``Event`` named tuples (``as_events``).
EventLog = list[tuple[str, int, tuple[Any, ...]]]


def as_events(log: EventLog) -> list[Event]:
    new = tuple.__new__
    return [e if type(e) is Event else new(Event, e) for e in log]


def event_from_dict(d: dict[str, Any]) -> Event:
    fields = EVENT_FIELDS.get(d["kind"], ())
    return Event(d["kind"], int(d["player"]), tuple(d[f] for f in fields))


_KIND_WORDS: Final = ("property", "house", "hotel")


def render_event(ev: Event, rules: Ruleset, names: list[str] | None = None) -> str:
    """One readable log line in the edition's square names and currency."""
    uk = rules.uk
    c = rules.currency

    def who(p: int) -> str:
        if p == -1:
            return "the Bank"
        if p == -2:
            return "the Free Parking pot"
        return names[p] if names and 0 <= p < len(names) else f"Player {p + 1}"

    def sq(i: int) -> str:
        return square_name(i, uk)

    a = ev.args
    p = who(ev.player)
    k = ev.kind
    if k == "first_roll":
        return f"{p} rolls {a[0]} and {a[1]} to decide who starts."
    if k == "first_player":
        return f"{p} starts."
    if k == "deal":
        paid = f" and pays {c}{a[1]}" if a[1] else " free"
        return f"{p} is dealt {sq(a[0])}{paid}."
    if k == "turn_start":
        return f"{p}'s turn."
    if k == "dice":
        return f"{p} rolls {a[0]} and {a[1]}" + (" (doubles)." if a[0] == a[1] else ".")
    if k == "move":
        return f"{p} moves to {sq(a[1])}."
    if k == "salary":
        return f"{p} collects {c}{a[0]} salary."
    if k == "speeding":
        return f"{p} throws doubles three times in a row."
    if k == "jail":
        return f"{p} goes to Jail."
    if k == "jail_fine":
        return f"{p} pays the {c}{a[0]} Jail fine."
    if k == "jail_card":
        return f"{p} uses a Get Out of Jail Free card ({DECK_NAMES[a[0]]})."
    if k == "jail_out":
        return f"{p} throws doubles and leaves Jail."
    if k == "jail_stay":
        return f"{p} stays in Jail (attempt {a[0]})."
    if k == "buy":
        return f"{p} buys {sq(a[0])} for {c}{a[1]}."
    if k == "decline":
        return f"{p} declines to buy {sq(a[0])}."
    if k == "auction_start":
        what = sq(a[1]) if a[0] == 0 else f"a {_KIND_WORDS[a[0]]}"
        return f"Auction of {what} begins."
    if k == "bid":
        return f"{p} bids {c}{a[0]}."
    if k == "pass_bid":
        return f"{p} passes."
    if k == "sealed_bid":
        return f"{p} hands in a sealed bid."
    if k == "sealed_reveal":
        return f"{p}'s sealed bid: {c}{a[0]}." if a[0] > 0 else f"{p}'s sealed bid: pass."
    if k == "auction_won":
        what = sq(a[1]) if a[0] == 0 else f"a {_KIND_WORDS[a[0]]}"
        return f"{p} wins the auction of {what} for {c}{a[2]}."
    if k == "auction_unsold":
        what = sq(a[1]) if a[0] == 0 else f"a {_KIND_WORDS[a[0]]}"
        return f"Nobody bids; {what} stays with the Bank."
    if k == "rent":
        return f"{p} pays {who(a[0])} {c}{a[2]} rent for {sq(a[1])}."
    if k == "no_rent":
        return f"{p} owes no rent for {sq(a[1])}: {who(a[0])} is in Jail."
    if k == "claim_open":
        return f"{who(a[0])} may claim {c}{a[2]} rent from {p} for {sq(a[1])}."
    if k == "claim_expired":
        return f"{who(a[0])} did not claim the rent from {p} in time."
    if k == "card":
        cards = DECKS[rules.decks][a[0]]
        text = cards[a[1]][3].replace("{c}", c)
        for i in range(40):
            text = text.replace(f"{{sq{i}}}", sq(i))
        return f"{p} draws {DECK_NAMES[a[0]]}: {text}."
    if k == "income_tax_choice":
        return f"{p} chooses to pay " + ("10% of total worth." if a[0] else f"{c}200.")
    if k == "worth":
        return f"{p}'s total worth is {c}{a[0]}."
    if k == "tax":
        return f"{p} pays {c}{a[1]} {sq(a[0])}."
    if k == "pay":
        return f"{p} pays {who(a[0])} {c}{a[1]}."
    if k == "collect":
        return f"{p} collects {c}{a[0]}."
    if k == "build":
        what = "a hotel" if a[1] == 5 else "a house"
        return f"{p} builds {what} on {sq(a[0])} for {c}{a[2]}."
    if k == "sell_building":
        return f"{p} sells a building on {sq(a[0])} for {c}{a[2]}."
    if k == "mortgage":
        return f"{p} mortgages {sq(a[0])} for {c}{a[1]}."
    if k == "unmortgage":
        return f"{p} lifts the mortgage on {sq(a[0])} for {c}{a[1]}."
    if k == "interest":
        return f"{p} pays {c}{a[1]} interest on mortgaged {sq(a[0])}."
    if k == "transfer":
        return f"{sq(a[1])} passes from {p} to {who(a[0])}."
    if k == "trade_proposed":
        return f"{p} offers {who(a[0])} a trade (#{a[1]})."
    if k == "trade_accepted":
        return f"{p} accepts {who(a[0])}'s trade (#{a[1]})."
    if k == "trade_rejected":
        return f"{p} rejects {who(a[0])}'s trade (#{a[1]})."
    if k == "trade_withdrawn":
        return f"{p} withdraws the trade offered to {who(a[0])} (#{a[1]})."
    if k == "trade_cancelled":
        return f"Trade #{a[0]} is cancelled."
    if k == "debt":
        return f"{p} owes {who(a[0])} {c}{a[1]} and must raise funds."
    if k == "debt_paid":
        return f"{p} pays debts of {c}{a[0]}."
    if k == "bankrupt":
        return f"{p} is bankrupt to {who(a[0])}."
    if k == "resign":
        return f"{p} resigns."
    if k == "free_parking":
        return f"{p} collects the {c}{a[0]} Free Parking jackpot."
    if k == "place_building":
        return f"{p} places the building on {sq(a[0])}."
    if k == "forfeit_building":
        return f"{p} cannot place the building; it stays with the Bank."
    if k == "shortage":
        what = _KIND_WORDS[a[0]] + "s"
        return (
            f"{p} asks to build on {sq(a[1])}, but the Bank has only {a[2]} {what} left: "
            "the others may ask for them too."
        )
    if k == "wish":
        return f"{p} wants to buy {_KIND_WORDS[a[0]]}s too."
    if k == "no_wish":
        return f"{p} does not want to buy {_KIND_WORDS[a[0]]}s now."
    if k == "build_lapsed":
        return f"{p} can no longer build on {sq(a[0])}."
    if k == "turn_end":
        return f"{p} ends the turn."
    if k == "turn_limit":
        return f"The turn limit is reached after {a[0]} turns: the highest net worth wins."
    if k == "length_cap":
        if a[1]:
            return f"The game's length cap of {a[1]} days is reached: the highest net worth wins."
        return (
            f"The game's length cap is reached: each player has had {a[0]} turns; "
            "the highest net worth wins."
        )
    if k == "end_requested":
        return "Time is up: the game ends when the current move is complete."
    if k == "game_over":
        return f"Game over ({a[0]}). {p} wins." if ev.player >= 0 else f"Game over ({a[0]})."
    return f"{k} {p} {a}"
