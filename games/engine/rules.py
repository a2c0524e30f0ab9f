"""Rulesets: a preset name plus switch overrides.

Every row of ``rule-variants.md`` is a switch here. A ruleset serialises to
``{"preset": name, "overrides": {...}}`` and is validated on construction.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from .errors import RulesetError

RENT_AUTOMATIC: Final = "automatic"
RENT_CLAIM: Final = "claim"
# Claim deadlines (rule-variants row "rent must be claimed").
CLAIM_SECOND_FOLLOWING_THROW: Final = "second_following_throw"  # US books
CLAIM_NEXT_THROW: Final = "next_throw"  # UK
CLAIM_SECOND_FOLLOWING_TURN: Final = "second_following_turn"  # 004 community section

END_LAST_PLAYER: Final = "last_player"
END_FIRST_BANKRUPTCY: Final = "first_bankruptcy"
END_SECOND_BANKRUPTCY: Final = "second_bankruptcy"
END_TIME: Final = "time"
#: Not a condition a host chooses: the end reason of ``turn_limit``.
END_TURN_LIMIT: Final = "turn_limit"
#: Not a condition either: the end reason of ``cap_turns`` and ``cap_days``.
END_LENGTH_CAP: Final = "length_cap"

# How auctions run (issue #17): the books' open ascending auction, or one
# hidden bid per player (for asynchronous games with long turn times).
AUCTION_OPEN: Final = "open"
AUCTION_SEALED: Final = "sealed"


@dataclass(frozen=True, slots=True)
class Ruleset:
    preset: str = "us-2003"
    # Edition: names, currency and decks.
    board_names: str = "us"  # "us" | "uk"
    currency: str = "$"
    decks: str = "us-classic"  # "us-classic" | "us-2008" | "uk"
    # Money.
    starting_cash: int = 1500
    go_salary: int = 200
    jail_fine: int = 50
    min_players: int = 2
    max_players: int = 8
    # Rent.
    rent_collection: str = RENT_CLAIM
    claim_deadline: str = CLAIM_SECOND_FOLLOWING_THROW
    double_rent_with_mortgage_in_group: bool = True
    mortgaged_railroads_count: bool = True
    no_rent_in_jail: bool = False
    # Taxes.
    income_tax_choice: bool = True  # 200 or 10% of total worth
    income_tax: int = 200
    luxury_tax: int = 75
    free_parking_jackpot: bool = False
    # Buying and auctions.
    auctions: bool = True
    bankrupt_to_bank_auction: bool = True
    auction_kind: str = AUCTION_OPEN  # "open" | "sealed"
    # Buildings.
    houses_per_hotel: int = 4
    building_shortage_auctions: bool = True
    build_in_own_turn_only: bool = False
    sell_group_at_once: str = "hotels"  # "hotels" (003) | "all" (000/004, UK)
    # Jail.
    jail_doubles_extra_throw: bool = False
    jail_attempts: int = 3  # short-2003: 1 (must leave on the next turn)
    third_doubles_to_jail: bool = True
    # Setup and ending.
    deal_deeds: int = 0
    deal_deeds_paid: bool = True
    end_condition: str = END_LAST_PLAYER
    # Not house rules: the site sets them so that bots that never trade
    # cannot play for ever. 0: no limit; else the game ends by net worth at
    # the first round's end from this turn on, once none of the seats held
    # by people (a bit a seat, ``turn_limit_people``) is still in the game:
    # at once in a game of bots, after the last person's bankruptcy or
    # resignation in another.
    turn_limit: int = 0
    turn_limit_people: int = 0
    # The length cap (tournament games, or a house rule): 0 for none. With
    # ``cap_turns`` the game ends by net worth (``valuation``) once each
    # player still in has had that many turns of their own (rounds, not
    # the turns of all players together), at the end of that round,
    # whoever is seated. ``cap_days`` is for the server, which has the
    # clock: when the days are up it applies the system action
    # ``end_cap``, which ends the game at once, by net worth too.
    cap_turns: int = 0
    cap_days: int = 0

    def to_dict(self) -> dict[str, Any]:
        base = PRESETS.get(self.preset, DEFAULT)
        overrides = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        }
        return {"preset": self.preset, "overrides": overrides}

    @property
    def uk(self) -> bool:
        return self.board_names == "uk"

    @property
    def claim_mode(self) -> bool:
        return self.rent_collection == RENT_CLAIM


SWITCH_NAMES: Final[tuple[str, ...]] = tuple(
    f.name for f in dataclasses.fields(Ruleset) if f.name != "preset"
)

_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "board_names": ("us", "uk"),
    "currency": ("$", "£"),
    "decks": ("us-classic", "us-2008", "uk"),
    "rent_collection": (RENT_AUTOMATIC, RENT_CLAIM),
    "claim_deadline": (
        CLAIM_SECOND_FOLLOWING_THROW,
        CLAIM_NEXT_THROW,
        CLAIM_SECOND_FOLLOWING_TURN,
    ),
    "auction_kind": (AUCTION_OPEN, AUCTION_SEALED),
    "houses_per_hotel": (3, 4),
    "sell_group_at_once": ("hotels", "all"),
    "end_condition": (END_LAST_PLAYER, END_FIRST_BANKRUPTCY, END_SECOND_BANKRUPTCY, END_TIME),
}
_RANGES: Final[dict[str, tuple[int, int]]] = {
    "starting_cash": (0, 1_000_000),
    "go_salary": (0, 100_000),
    "jail_fine": (0, 100_000),
    "min_players": (2, 8),
    "max_players": (2, 8),
    "income_tax": (0, 100_000),
    "luxury_tax": (0, 100_000),
    "jail_attempts": (1, 3),
    "deal_deeds": (0, 14),
    "turn_limit": (0, 100_000),
    "turn_limit_people": (0, 255),
    "cap_turns": (0, 1_000),
    "cap_days": (0, 366),
}

# What each switch may be, for the API's schema to state (api/create.py).
SWITCH_CHOICES: Final = _CHOICES
SWITCH_RANGES: Final = _RANGES


def _check_type(name: str, value: object) -> None:
    default = getattr(DEFAULT, name) if name != "preset" else ""
    if type(value) is not type(default):
        raise RulesetError(f"Switch {name!r} must be a {type(default).__name__}, got {value!r}.")


def _validate(r: Ruleset) -> Ruleset:
    for f in dataclasses.fields(r):
        value = getattr(r, f.name)
        _check_type(f.name, value)
        if f.name in _CHOICES and value not in _CHOICES[f.name]:
            allowed = ", ".join(repr(c) for c in _CHOICES[f.name])
            raise RulesetError(f"Switch {f.name!r} must be one of {allowed}; got {value!r}.")
        if f.name in _RANGES:
            lo, hi = _RANGES[f.name]
            if not lo <= int(value) <= hi:
                raise RulesetError(f"Switch {f.name!r} must be between {lo} and {hi}; got {value}.")
    if r.min_players > r.max_players:
        raise RulesetError("min_players cannot exceed max_players.")
    if r.deal_deeds * r.max_players > 28:
        raise RulesetError(
            f"Cannot deal {r.deal_deeds} title deeds to each of {r.max_players} players: "
            "there are only 28."
        )
    return r


DEFAULT: Final = Ruleset()

PRESETS: Final[dict[str, Ruleset]] = {
    # 003: the 2003 Parker Brothers booklet.
    "us-2003": DEFAULT,
    # 004: classic rules with the 2008 changes.
    "us-2008": dataclasses.replace(
        DEFAULT, preset="us-2008", income_tax_choice=False, luxury_tax=100, decks="us-2008"
    ),
    # 001: Waddingtons, London board, pounds.
    "uk": dataclasses.replace(
        DEFAULT,
        preset="uk",
        board_names="uk",
        currency="£",
        decks="uk",
        max_players=6,
        claim_deadline=CLAIM_NEXT_THROW,
        double_rent_with_mortgage_in_group=False,
        mortgaged_railroads_count=False,
        income_tax_choice=False,
        luxury_tax=100,
        build_in_own_turn_only=True,
        sell_group_at_once="all",
        jail_doubles_extra_throw=True,
    ),
    # 003's short game.
    "short-2003": dataclasses.replace(
        DEFAULT,
        preset="short-2003",
        deal_deeds=3,
        deal_deeds_paid=False,
        houses_per_hotel=3,
        jail_attempts=1,
        income_tax_choice=False,
        end_condition=END_FIRST_BANKRUPTCY,
    ),
    # 000 and 004's older short game.
    "short-classic": dataclasses.replace(
        DEFAULT,
        preset="short-classic",
        sell_group_at_once="all",
        deal_deeds=2,
        deal_deeds_paid=True,
        houses_per_hotel=3,
        end_condition=END_SECOND_BANKRUPTCY,
    ),
    # The time-limit game of 000, 003, 004 (and the UK "short game" of 001).
    "time-limit": dataclasses.replace(
        DEFAULT,
        preset="time-limit",
        deal_deeds=2,
        deal_deeds_paid=True,
        end_condition=END_TIME,
    ),
    # 002: one online version: automatic rent, no auctions.
    "quick-web": dataclasses.replace(
        DEFAULT,
        preset="quick-web",
        rent_collection=RENT_AUTOMATIC,
        auctions=False,
        bankrupt_to_bank_auction=False,
        building_shortage_auctions=False,
    ),
}


def ruleset(preset: str = "us-2003", **overrides: Any) -> Ruleset:
    """Build a validated ruleset from a preset name and switch overrides."""
    if preset not in PRESETS:
        raise RulesetError(
            f"Unknown preset {preset!r}; choose one of {', '.join(sorted(PRESETS))}."
        )
    for name, value in overrides.items():
        if name not in SWITCH_NAMES:
            raise RulesetError(f"Unknown switch {name!r}.")
        # Checked before the dataclass sees it: compiled (mypyc) it refuses a
        # wrong type with a bare TypeError instead of this message.
        _check_type(name, value)
    return _validate(dataclasses.replace(PRESETS[preset], **overrides))


def ruleset_from_dict(d: Any) -> Ruleset:
    """Inverse of ``Ruleset.to_dict``; also accepts a bare preset name."""
    if isinstance(d, str):
        return ruleset(d)
    if not isinstance(d, dict) or not isinstance(d.get("preset", "us-2003"), str):
        raise RulesetError(
            "A ruleset must be a preset name or {'preset': ..., 'overrides': {...}}."
        )
    overrides = d.get("overrides", {})
    if not isinstance(overrides, dict):
        raise RulesetError("Ruleset overrides must be a mapping of switch names to values.")
    return ruleset(d.get("preset", "us-2003"), **overrides)
