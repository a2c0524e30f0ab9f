"""One entry per kind of decision a deadline can be for: the words that
the timers, the notices and the reminders use for it, and how its clock runs.

Adding a decision kind to the engine means adding its entry here
(``tests/games/test_decisions.py`` fails until it has one).
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine

TIME_LIMIT = "time_limit"  # not a player's decision: the game's own end


@dataclass(frozen=True)
class DecisionKind:
    kind: str
    label: str  # the timer's words: "Alice: buy or decline, 3 min left"
    words: str  # a person's notice: "you must <words> by ..."
    # The clock runs from when it arose, whoever acts meanwhile (a window),
    # rather than from the last move.
    window: bool = False
    # Holds up the game; only these count towards a take-over and send email.
    blocking: bool = True


_ENTRIES = (
    DecisionKind("roll", "roll", "roll the dice"),
    DecisionKind("jail", "get out of Jail", "get out of Jail"),
    DecisionKind("buy", "buy or decline", "decide on a purchase"),
    DecisionKind("bid", "bid or pass", "bid or pass in an auction"),
    DecisionKind("income_tax", "Income Tax", "choose how to pay Income Tax"),
    DecisionKind("fine_or_chance", "fine or Chance", "choose a fine or a Chance"),
    DecisionKind("end_turn", "end the turn", "end your turn"),
    DecisionKind("raise_funds", "raise funds", "raise funds"),
    DecisionKind("place_building", "place a building", "place a building"),
    DecisionKind(
        "trade_response", "answer a trade", "answer a trade offer", window=True, blocking=False
    ),
    DecisionKind("claim_rent", "claim rent", "claim rent", window=True, blocking=False),
    DecisionKind(
        TIME_LIMIT,
        "the game ends (time limit)",
        "see the game end (time limit)",
        window=True,
        blocking=False,
    ),
)

KINDS: dict[str, DecisionKind] = {entry.kind: entry for entry in _ENTRIES}
WINDOW_KINDS = frozenset(k for k, entry in KINDS.items() if entry.window)
NON_BLOCKING_KINDS = frozenset(k for k, entry in KINDS.items() if not entry.blocking)


def _of(kind: str) -> DecisionKind:
    # A kind from an older deploy's rows still reads sensibly.
    return KINDS.get(kind) or DecisionKind(kind, kind.replace("_", " "), kind.replace("_", " "))


def label(kind: str) -> str:
    return _of(kind).label


def words(kind: str) -> str:
    return _of(kind).words


def missing_kinds() -> list[str]:
    """Engine decision kinds without an entry (the registry's own test)."""
    return [k for k in engine.DECISION_KINDS if k not in KINDS]
