"""How each rules switch is offered to a lobby host: label, one-line help, widget."""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

from django.utils.translation import gettext, gettext_noop

from common.numbers import MAX_DIGITS, whole_number
from games import engine

# Rules the site sets, never offered to a host (games.services.lobby.with_turn_limit).
SITE_ONLY = frozenset({"turn_limit", "turn_limit_people"})


class SwitchInfo(NamedTuple):
    label: str
    help: str
    choices: tuple[tuple[Any, str], ...] = ()


SWITCHES: dict[str, SwitchInfo] = {
    "board_names": SwitchInfo(
        "Board", "Street names of the US (Atlantic City) or UK (London) board.",
        (("us", "US names"), ("uk", "UK names")),
    ),
    "currency": SwitchInfo("Currency", "The money symbol shown.", (("$", "Dollars ($)"), ("£", "Pounds (£)"))),
    "decks": SwitchInfo(
        "Card decks", "Which edition's Chance and Community Chest cards are shuffled.",
        (("us-classic", "US classic"), ("us-2008", "US 2008"), ("uk", "UK")),
    ),
    "starting_cash": SwitchInfo("Starting cash", "Money each player receives at the start."),
    "go_salary": SwitchInfo("GO salary", "Paid on passing or landing on GO."),
    "jail_fine": SwitchInfo("Jail fine", "Paid to get out of jail."),
    "min_players": SwitchInfo("Fewest players", "The game cannot start with fewer."),
    "max_players": SwitchInfo("Most players", "The rule book's upper limit (2 to 8)."),
    "rent_collection": SwitchInfo(
        "Rent collection",
        "Claim window: owners must ask for rent in time, as the printed rules say. Automatic: rent is paid at once.",
        (("claim", "Owner must claim"), ("automatic", "Automatic")),
    ),
    "claim_deadline": SwitchInfo(
        "Claim deadline", "When an unclaimed rent is lost.",
        (
            ("second_following_throw", "Before the second player after throws (US)"),
            ("next_throw", "Before the next throw (UK)"),
            ("second_following_turn", "By the start of the second following turn"),
        ),
    ),
    "double_rent_with_mortgage_in_group": SwitchInfo(
        "Double rent despite a mortgage",
        "An unimproved complete group still pays double rent when one of its sites is mortgaged (US reading).",
    ),
    "mortgaged_railroads_count": SwitchInfo(
        "Mortgaged railroads count", "A mortgaged railroad still counts toward the railroad rent (UK: it does not)."
    ),
    "no_rent_in_jail": SwitchInfo("No rent while in jail", "House rule: owners in jail collect nothing."),
    "income_tax_choice": SwitchInfo(
        "Income Tax choice", "Pay 200 or 10% of total worth, chosen before the worth is counted (2003 US)."
    ),
    "income_tax": SwitchInfo("Income Tax", "The flat Income Tax."),
    "luxury_tax": SwitchInfo("Luxury / Super Tax", "75 on the 2003 US board, 100 since 2008 and in the UK."),
    "free_parking_jackpot": SwitchInfo(
        "Free Parking jackpot", "House rule: taxes and fines pile up on Free Parking for whoever lands there."
    ),
    "auctions": SwitchInfo("Auctions", "A property its lander declines is auctioned to everyone."),
    "bankrupt_to_bank_auction": SwitchInfo(
        "Auction a bankrupt's property", "When a player goes bankrupt to the bank, the bank auctions the property."
    ),
    "auction_kind": SwitchInfo(
        "Auction kind",
        "Open: bid up live, as the books say. Sealed: one hidden bid each, highest wins, "
        "ties to the earliest; nobody waits out a long bid window.",
        (("open", "Open auction (live games)"), ("sealed", "Sealed bids (one hidden bid each)")),
    ),
    "houses_per_hotel": SwitchInfo(
        "Houses for a hotel", "How many houses a site needs before a hotel (the short game uses 3).",
        ((4, "4 houses"), (3, "3 houses")),
    ),
    "building_shortage_auctions": SwitchInfo(
        "Building shortage auctions", "When several players want more houses or hotels than the bank has, auction them."
    ),
    "build_in_own_turn_only": SwitchInfo("Build only in your turn", "UK rule: buildings are bought in your own turn."),
    "sell_group_at_once": SwitchInfo(
        "Selling buildings back", "What may be sold to the bank in one go.",
        (("hotels", "One house at a time, hotels whole (2003)"), ("all", "A whole group at once (classic, UK)")),
    ),
    "jail_doubles_extra_throw": SwitchInfo(
        "Throw again after doubles out of jail", "UK rule: leaving jail by doubles earns another throw."
    ),
    "jail_attempts": SwitchInfo("Turns to roll out of jail", "Failed doubles attempts before the fine is forced."),
    "third_doubles_to_jail": SwitchInfo("Third doubles to jail", "Three doubles in a row send you to jail."),
    "deal_deeds": SwitchInfo("Title deeds dealt", "Properties dealt to each player at the start (short games)."),
    "deal_deeds_paid": SwitchInfo("Dealt deeds are paid for", "Players pay the bank the printed price of dealt deeds."),
    "end_condition": SwitchInfo(
        "Game ends", "When the game is over and the richest player wins.",
        (
            ("last_player", "Last player left"),
            ("first_bankruptcy", "At the first bankruptcy"),
            ("second_bankruptcy", "At the second bankruptcy"),
            ("time", "When time is called"),
        ),
    ),
    # The length cap (issue #33): what tournaments use, offered as a house rule.
    "cap_turns": SwitchInfo(
        gettext_noop("Length cap in turns"),
        gettext_noop("The game ends once each player has had this many turns; the highest net worth wins. 0: no cap."),
    ),
    "cap_days": SwitchInfo(
        gettext_noop("Length cap in days"),
        gettext_noop("The game ends this many days after it starts, even mid-move; the highest net worth wins. 0: no cap."),
    ),
}  # fmt: skip

# The most each length cap allows (the engine's own ranges: a test keeps them so).
CAP_MAX: dict[str, int] = {"cap_turns": 1000, "cap_days": 366}

PRESET_LABELS: dict[str, str] = {
    "us-2003": "US rules, 2003 booklet (default)",
    "us-2008": "US rules with the 2008 changes",
    "uk": "UK rules: London board, pounds",
    "short-2003": "Short game (2003)",
    "short-classic": "Short game (classic)",
    "time-limit": "Time-limit game",
    "quick-web": "Quick web game: automatic rent, no auctions",
}


# Turns this long or longer pre-select sealed-bid auctions in the create form.
SEALED_FROM_SECONDS = 3600
SEALED_WHY = (
    "Sealed bids are pre-selected for turns of an hour or more: in an open auction "
    "everyone would wait out each bid window; sealed bids close once all are in."
)


def switch_rows(
    preset: str, *, turn_seconds: int | None = None, current: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Each switch with its type and value, for the create form: the
    preset's, or ``current`` (what the form already says); the auction kind
    follows ``turn_seconds`` (sealed for long turns, with ``why``)."""
    base = engine.PRESETS[preset]
    current = current or {}
    rows = []
    for field in dataclasses.fields(base):
        if field.name == "preset" or field.name in SITE_ONLY:
            continue
        info = SWITCHES.get(field.name, SwitchInfo(field.name.replace("_", " ").capitalize(), ""))
        value = current.get(field.name, getattr(base, field.name))
        why = ""
        if field.name == "auction_kind" and turn_seconds is not None:
            long_turns = turn_seconds >= SEALED_FROM_SECONDS
            value = engine.AUCTION_SEALED if long_turns else getattr(base, field.name)
            why = SEALED_WHY if long_turns else ""
        kind = "choice" if info.choices else type(value).__name__
        rows.append(
            {"name": field.name, "label": gettext(info.label), "help": gettext(info.help),
             "kind": kind, "value": value, "choices": info.choices, "why": why,
             "max": CAP_MAX.get(field.name)}
        )  # fmt: skip
    return rows


def parse_switches(preset: str, data: Any) -> dict[str, Any]:
    """Overrides that differ from the preset, read from submitted form data.
    A checkbox that is absent is off; values are converted to the switch's type."""
    base = engine.PRESETS[preset]
    overrides: dict[str, Any] = {}
    for field in dataclasses.fields(base):
        name = field.name
        if name == "preset" or name in SITE_ONLY:
            continue
        default = getattr(base, name)
        key = f"sw_{name}"
        if isinstance(default, bool):
            value: Any = data.get(key) in {"on", "true", "1"}
        elif key not in data:
            continue
        elif isinstance(default, int):
            raw = data.get(key)
            # The lobby posts text, the API's JSON a number.
            value = whole_number(raw if isinstance(raw, str) else _text(raw), signed=True)
            if value is None:
                raise ValueError(f"{SWITCHES[name].label} must be a whole number.")
            if name in CAP_MAX and not 0 <= value <= CAP_MAX[name]:
                raise ValueError(
                    gettext("%(switch)s must be from 0 (no cap) to %(most)s.")
                    % {"switch": gettext(SWITCHES[name].label), "most": CAP_MAX[name]}
                )
        else:
            value = str(data.get(key))
        if value != default:
            overrides[name] = value
    return overrides


def _text(raw: Any) -> str | None:
    """A JSON number as text (None for anything else, a bool included)."""
    return str(raw) if type(raw) is int and abs(raw) < 10**MAX_DIGITS else None
