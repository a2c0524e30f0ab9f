"""Chance and Community Chest decks of each edition, kept as data.

A card is ``(effect, arg1, arg2, text)``. ``text`` uses ``{c}`` for the
currency sign and ``{sq<N>}`` for the name of square N in the edition's
names, so one deck serves renders in any naming.
"""

from __future__ import annotations

from typing import Final

# Card effects.
ADVANCE: Final = "advance"  # arg1 = square; collect salary if passing GO
NEAREST_RAILROAD: Final = "nearest_railroad"  # pay twice the rental
NEAREST_UTILITY: Final = "nearest_utility"  # pay ten times a fresh throw
MONEY: Final = "money"  # arg1 = amount (+ collect, - pay the bank)
JAIL_FREE: Final = "jail_free"
BACK: Final = "back"  # arg1 = spaces
JAIL: Final = "jail"
REPAIRS: Final = "repairs"  # arg1 = per house, arg2 = per hotel
PAY_EACH: Final = "pay_each"  # arg1 = amount paid to each other player
COLLECT_EACH: Final = "collect_each"  # arg1 = amount from each other player
BACK_TO: Final = "back_to"  # arg1 = square; move backwards, never passing GO
FINE_OR_CHANCE: Final = "fine_or_chance"  # arg1 = fine

Card = tuple[str, int, int, str]

CHANCE_DECK: Final = 0
CHEST_DECK: Final = 1
DECK_NAMES: Final = ("Chance", "Community Chest")

US_CHANCE: Final[tuple[Card, ...]] = (
    (ADVANCE, 0, 0, "Advance to GO (collect {c}200)"),
    (ADVANCE, 24, 0, "Advance to {sq24} (collect {c}200 if you pass GO)"),
    (ADVANCE, 11, 0, "Advance to {sq11} (collect {c}200 if you pass GO)"),
    (NEAREST_UTILITY, 0, 0, "Advance token to the nearest Utility"),
    (NEAREST_RAILROAD, 0, 0, "Advance token to the nearest Railroad and pay twice the rental"),
    (NEAREST_RAILROAD, 0, 0, "Advance token to the nearest Railroad and pay twice the rental"),
    (MONEY, 50, 0, "Bank pays you dividend of {c}50"),
    (JAIL_FREE, 0, 0, "Get Out of Jail Free"),
    (BACK, 3, 0, "Go back 3 spaces"),
    (JAIL, 0, 0, "Go directly to Jail"),
    (REPAIRS, 25, 100, "Make general repairs on all your property: {c}25 per house, {c}100 per hotel"),
    (MONEY, -15, 0, "Pay poor tax of {c}15"),
    (ADVANCE, 5, 0, "Take a trip to {sq5} (collect {c}200 if you pass GO)"),
    (ADVANCE, 39, 0, "Take a walk on the {sq39}"),
    (PAY_EACH, 50, 0, "You have been elected Chairman of the Board: pay each player {c}50"),
    (MONEY, 150, 0, "Your building and loan matures: collect {c}150"),
)  # fmt: skip

_US_CHEST_COMMON: Final[tuple[Card, ...]] = (
    (ADVANCE, 0, 0, "Advance to GO (collect {c}200)"),
    (MONEY, 200, 0, "Bank error in your favor: collect {c}200"),
    (MONEY, -50, 0, "Doctor's fee: pay {c}50"),
    (JAIL_FREE, 0, 0, "Get Out of Jail Free"),
    (JAIL, 0, 0, "Go directly to Jail"),
    (MONEY, 20, 0, "Income tax refund: collect {c}20"),
    (MONEY, 100, 0, "Life insurance matures: collect {c}100"),
    (MONEY, -100, 0, "Pay hospital {c}100"),
    (MONEY, -150, 0, "Pay school tax of {c}150"),
    (MONEY, 25, 0, "Receive for services {c}25"),
    (REPAIRS, 40, 115, "You are assessed for street repairs: {c}40 per house, {c}115 per hotel"),
    (MONEY, 10, 0, "You have won second prize in a beauty contest: collect {c}10"),
    (MONEY, 100, 0, "You inherit {c}100"),
)  # fmt: skip

# The long-lived 1935-2008 wording (the 2003 booklet's era).
US_CHEST_CLASSIC: Final[tuple[Card, ...]] = (
    *_US_CHEST_COMMON,
    (MONEY, 45, 0, "From sale of stock you get {c}45"),
    (COLLECT_EACH, 50, 0, "Grand Opera Night opening: collect {c}50 from every player"),
    (MONEY, 100, 0, "Xmas Fund matures: collect {c}100"),
)  # fmt: skip

# The later wording (2008 on).
US_CHEST_2008: Final[tuple[Card, ...]] = (
    *_US_CHEST_COMMON,
    (MONEY, 50, 0, "From sale of stock you get {c}50"),
    (COLLECT_EACH, 10, 0, "It is your birthday: collect {c}10 from every player"),
    (MONEY, 100, 0, "Holiday Fund matures: collect {c}100"),
)  # fmt: skip

UK_CHANCE: Final[tuple[Card, ...]] = (
    (ADVANCE, 0, 0, "Advance to GO"),
    (JAIL, 0, 0, "Go to Jail"),
    (ADVANCE, 11, 0, "Advance to {sq11} (collect {c}200 if you pass GO)"),
    (ADVANCE, 15, 0, "Take a trip to {sq15} (collect {c}200 if you pass GO)"),
    (ADVANCE, 24, 0, "Advance to {sq24} (collect {c}200 if you pass GO)"),
    (ADVANCE, 39, 0, "Advance to {sq39}"),
    (BACK, 3, 0, "Go back three spaces"),
    (REPAIRS, 25, 100, "Make general repairs on all of your houses: {c}25 per house, {c}100 per hotel"),
    (REPAIRS, 40, 115, "You are assessed for street repairs: {c}40 per house, {c}115 per hotel"),
    (MONEY, -150, 0, "Pay school fees of {c}150"),
    (MONEY, -20, 0, '"Drunk in charge" fine {c}20'),
    (MONEY, -15, 0, "Speeding fine {c}15"),
    (MONEY, 150, 0, "Your building loan matures: receive {c}150"),
    (MONEY, 100, 0, "You have won a crossword competition: collect {c}100"),
    (MONEY, 50, 0, "Bank pays you dividend of {c}50"),
    (JAIL_FREE, 0, 0, "Get out of jail free"),
)  # fmt: skip

UK_CHEST: Final[tuple[Card, ...]] = (
    (ADVANCE, 0, 0, "Advance to GO"),
    (BACK_TO, 1, 0, "Go back to {sq1}"),
    (JAIL, 0, 0, "Go to jail"),
    (MONEY, -100, 0, "Pay hospital {c}100"),
    (MONEY, -50, 0, "Doctor's fee: pay {c}50"),
    (MONEY, -50, 0, "Pay your insurance premium {c}50"),
    (MONEY, 200, 0, "Bank error in your favour: collect {c}200"),
    (MONEY, 100, 0, "Annuity matures: collect {c}100"),
    (MONEY, 100, 0, "You inherit {c}100"),
    (MONEY, 50, 0, "From sale of stock you get {c}50"),
    (MONEY, 25, 0, "Receive interest on 7% preference shares: {c}25"),
    (MONEY, 20, 0, "Income tax refund: collect {c}20"),
    (MONEY, 10, 0, "You have won second prize in a beauty contest: collect {c}10"),
    (COLLECT_EACH, 10, 0, "It is your birthday: collect {c}10 from each player"),
    (JAIL_FREE, 0, 0, "Get out of jail free"),
    (FINE_OR_CHANCE, 10, 0, 'Pay a {c}10 fine or take a "Chance"'),
)  # fmt: skip

# deck edition name -> (chance deck, community chest deck)
DECKS: Final[dict[str, tuple[tuple[Card, ...], tuple[Card, ...]]]] = {
    "us-classic": (US_CHANCE, US_CHEST_CLASSIC),
    "us-2008": (US_CHANCE, US_CHEST_2008),
    "uk": (UK_CHANCE, UK_CHEST),
}
