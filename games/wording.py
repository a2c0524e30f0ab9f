"""Words for the engine's numbers, shared by the pages, the decision
registry and the notices: money, squares, the auctioned items, why a game
ended."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games import engine

AUCTION_ITEMS = ("property", "house", "hotel")


def money(rules: engine.Ruleset, amount: int) -> str:
    sign = "-" if amount < 0 else ""
    return f"{sign}{rules.currency}{abs(amount):,}"


def fine_or_chance_amount(rules: engine.Ruleset) -> int:
    """The fine of the UK "pay a fine or take a Chance" card."""
    return next((c[1] for c in engine.DECKS[rules.decks][1] if c[0] == engine.FINE_OR_CHANCE), 10)


def square_name(rules: engine.Ruleset, sq: int) -> str:
    return engine.square_name(sq, rules.uk)


def game_money(state: dict[str, Any] | None, amount: int) -> str:
    """``money`` for a game known by its stored state (its rules' currency),
    without decoding the whole state: a profile lists twenty games."""
    try:
        rules = engine.ruleset_from_dict((state or {}).get("rules", "us-2003"))
    except (engine.RulesetError, TypeError):
        rules = engine.ruleset("us-2003")
    return money(rules, amount)


# Why a game ended, as the end of a sentence: "Game over (one player is left)."
END_REASONS = {
    "last_player": gettext_lazy("one player is left"),
    "first_bankruptcy": gettext_lazy("the first bankruptcy"),
    "second_bankruptcy": gettext_lazy("the second bankruptcy"),
    "time": gettext_lazy("time ran out"),
    "turn_limit": gettext_lazy("the turn limit was reached"),
    "length_cap": gettext_lazy("the length cap was reached"),
}


def end_reason(reason: str) -> str:
    """The words for an engine's ``end_reason``; an unknown one is still
    words, never an identifier."""
    known = END_REASONS.get(reason)
    if known is not None:
        return str(known)
    return reason.replace("_", " ").strip() or gettext("the game ended")


def length_cap(rules: engine.Ruleset) -> str:
    """The game's length cap in a few words ("Length cap: 30 turns, 14 days"),
    or "" for a game without one."""
    parts = []
    if rules.cap_turns:
        parts.append(gettext("%(turns)s turns each") % {"turns": rules.cap_turns})
    if rules.cap_days:
        parts.append(gettext("%(days)s days") % {"days": rules.cap_days})
    if not parts:
        return ""
    return gettext("Length cap: %(cap)s") % {"cap": ", ".join(parts)}


def game_over(reason: str, winner: str | None) -> str:
    """The log's and the replay's last line."""
    if winner:
        return gettext("Game over (%(reason)s): %(winner)s wins.") % {
            "reason": end_reason(reason),
            "winner": winner,
        }
    return gettext("Game over (%(reason)s).") % {"reason": end_reason(reason)}
