"""The card behind each board square: a title deed, a deck, or a rule line.

``square_card(state, sq, deck_left)`` gives the template context of
``games/square_card.html``. Every number comes from the engine's board data
and the game's ruleset, never from a template. A card shows only what is
public: a deed's printed terms and its owner, buildings and mortgage; for a
deck, how many cards are still to come before it comes round again (worked
out from the public log by ``cards_left``), never which ones or in which
order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games import engine
from games.web.presenters import group_name
from games.wording import money, square_name

DECK_OF_KIND = {engine.CHANCE: engine.CHANCE_DECK, engine.CHEST: engine.CHEST_DECK}
# The deed's colour band is a class (the CSP allows no inline style), as on the board.
GROUP_SLUGS = ("brown", "light-blue", "pink", "orange", "red", "yellow", "green", "dark-blue")


def cards_left(
    rules: engine.Ruleset, deck: int, log: Iterable[tuple[str, dict[str, Any]]], in_deck: int
) -> int:
    """How many cards of ``deck`` come up before it comes round again.

    Drawn cards go under the deck (it is never reshuffled), so the deck is a
    queue; each card in it is marked with the round it will be drawn in.
    ``log`` is the game's public events (kind, payload) in order: "card"
    draws and "jail_card" returns. ``in_deck`` is the deck's size now (its
    cards less the Get Out of Jail Free cards held), which also accounts
    for cards a bankrupt player hands back.
    """
    cards = engine.DECKS[rules.decks][deck]
    queue = [1] * len(cards)
    current = 1
    for kind, payload in log:
        if payload.get("deck") != deck:
            continue
        if kind == "card" and queue:
            current = queue.pop(0)
            if cards[payload["card"]][0] != engine.JAIL_FREE:
                queue.append(current + 1)
        elif kind == "jail_card":
            queue.append(current + 1)
    queue += [current + 1] * (in_deck - len(queue))
    if not queue:
        return 0
    return queue.count(queue[0])


def _rent_rows(state: engine.State, sq: int) -> list[dict[str, Any]]:
    """The deed's rent table, each row marked ``now`` if it applies today."""
    rules = state.rules
    kind = engine.KIND[sq]
    owner = state.owner[sq]
    rows: list[dict[str, Any]] = []
    if kind == engine.SITE:
        rent = engine.RENT[sq]
        members = engine.GROUP_MEMBERS[engine.GROUP[sq]]
        full_set = owner >= 0 and all(state.owner[m] == owner for m in members)
        b = state.bld[sq]
        set_label = "With the full colour set"
        if not rules.double_rent_with_mortgage_in_group:
            set_label += " (none mortgaged)"
        rows.append({"label": "Rent", "amount": rent[0], "now": owner >= 0 and not full_set})
        rows.append({"label": set_label, "amount": 2 * rent[0], "now": full_set and b == 0})
        for houses in range(1, rules.houses_per_hotel + 1):
            rows.append(
                {
                    "label": f"With {houses} house{'s' if houses > 1 else ''}",
                    "amount": rent[houses],
                    "now": b == houses,
                }
            )
        rows.append(
            {"label": "With a hotel", "amount": rent[engine.HOTEL], "now": b == engine.HOTEL}
        )
    elif kind == engine.RAILROAD:
        word = "station" if rules.uk else "railroad"
        count = sum(
            1
            for r in engine.GROUP_MEMBERS[engine.GROUP[sq]]
            if owner >= 0 and state.owner[r] == owner
        )
        for n, amount in enumerate(engine.RAILROAD_RENTS, start=1):
            label = f"{n} {word}{'s' if n > 1 else ''} owned"
            rows.append({"label": label, "amount": amount, "now": count == n})
    else:
        count = sum(
            1
            for u in engine.GROUP_MEMBERS[engine.GROUP[sq]]
            if owner >= 0 and state.owner[u] == owner
        )
        for n, times in enumerate(engine.UTILITY_MULTIPLIERS, start=1):
            label = "One utility owned" if n == 1 else "Both utilities owned"
            rows.append({"label": label, "times": times, "now": count == n})
    for row in rows:
        row["now"] = row["now"] and owner >= 0 and not state.mortgaged[sq]
        if "amount" in row:
            row["money"] = money(rules, row["amount"])
    return rows


def kind_slug(kind: int) -> str:
    return "railroad" if kind == engine.RAILROAD else "utility"


def _deed(state: engine.State, sq: int) -> dict[str, Any]:
    rules = state.rules
    kind = engine.KIND[sq]
    g = engine.GROUP[sq]
    owner = state.owner[sq]
    b = state.bld[sq]
    mortgage = engine.MORTGAGE_VALUE[sq]
    deed: dict[str, Any] = {
        "group": group_name(rules, g),
        "slug": GROUP_SLUGS[g] if kind == engine.SITE else kind_slug(kind),
        "price": money(rules, engine.PRICE[sq]),
        "rents": _rent_rows(state, sq),
        "mortgage": money(rules, mortgage),
        "lift": money(rules, mortgage + engine.ten_percent(mortgage)),
        "owner": state.names[owner] if owner >= 0 else "",
        "mortgaged": state.mortgaged[sq],
        "hotel": b == engine.HOTEL,
        "houses": b if b != engine.HOTEL else 0,
    }
    if kind == engine.SITE:
        deed["house_cost"] = money(rules, engine.HOUSE_COST[sq])
        deed["houses_per_hotel"] = rules.houses_per_hotel
    return deed


def _rule_lines(state: engine.State, sq: int) -> list[str]:
    """The rules of a square that is neither a property nor a deck."""
    rules = state.rules
    kind = engine.KIND[sq]
    if kind == engine.GO:
        return [f"Collect {money(rules, rules.go_salary)} salary each time you pass or land on GO."]
    if kind == engine.JAIL:
        attempts = rules.jail_attempts
        tries = "one turn" if attempts == 1 else f"{attempts} turns"
        return [
            "Landing here by the dice, you are just visiting.",
            f"In jail, leave by throwing doubles (up to {tries}), with a Get Out of Jail "
            f"Free card, or by paying the {money(rules, rules.jail_fine)} fine; after the "
            f"last failed throw you pay {money(rules, rules.jail_fine)} and move.",
        ]
    if kind == engine.FREE_PARKING:
        if rules.free_parking_jackpot:
            return [
                "Taxes and fines go into a pot; whoever lands here takes it.",
                f"The pot holds {money(rules, state.pot)}.",
            ]
        return ["A free resting place: nothing happens here."]
    if kind == engine.INCOME_TAX:
        if rules.income_tax_choice:
            return [
                f"Pay {money(rules, rules.income_tax)} or 10% of your total worth, "
                "chosen before you work out your worth."
            ]
        return [f"Pay {money(rules, rules.income_tax)}."]
    if kind == engine.LUXURY_TAX:
        return [f"Pay {money(rules, rules.luxury_tax)}."]
    if kind == engine.GO_TO_JAIL:
        return [
            f"Go directly to Jail: do not pass GO, do not collect {money(rules, rules.go_salary)}."
        ]
    return []


def square_card(state: engine.State, sq: int, deck_left: int | None = None) -> dict[str, Any]:
    """The context of ``games/square_card.html`` for square ``sq``; for a
    deck square, ``deck_left`` from ``cards_left``."""
    rules = state.rules
    kind = engine.KIND[sq]
    card: dict[str, Any] = {"square": sq, "name": square_name(rules, sq), "kind": "rule"}
    if engine.IS_PROPERTY[sq]:
        card["kind"] = "deed"
        card["deed"] = _deed(state, sq)
        card["utility"] = kind == engine.UTILITY
    elif kind in DECK_OF_KIND:
        deck = DECK_OF_KIND[kind]
        card["kind"] = "deck"
        card["deck_size"] = len(engine.DECKS[rules.decks][deck])
        card["deck_left"] = deck_left
    else:
        card["lines"] = _rule_lines(state, sq)
    return card
