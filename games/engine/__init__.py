"""The Monopoly rules engine: pure Python, standard library only.

A rules core with no I/O and no clock (python-chess style): the server owns
persistence and time. Typical use::

    from games import engine
    s = engine.new_game("us-2003", ["alice", "bob"], seed=42)
    for pending in engine.pending_decisions(s):
        ...                                   # attach deadlines
    actions = engine.legal_actions(s, player=0)
    s, events = engine.apply(s, actions[0])   # input state is untouched
    lines = [engine.render_event(e, s.rules, s.names) for e in events]
    blob = engine.to_dict(s)                  # JSON-compatible, schema_version
    s = engine.from_dict(blob)

Illegal actions raise ``IllegalAction`` (a ``ValueError``) with a message fit
for players. ``timeout_action(state, player)`` gives the default when a
deadline passes. See docs/engine.md for the full API and design.
"""

from __future__ import annotations

from .actions import RESIGN, Action, Terms, action_from_dict, terms_from_dict
from .bots import HeuristicBot, RandomBot, make_bot, next_actor
from .codec import from_dict, to_dict
from .errors import (
    CodecError,
    EngineError,
    GameOver,
    IllegalAction,
    NotEnoughCash,
    NotYourTurn,
    RulesetError,
    RuleViolation,
    UnknownAction,
    WrongPhase,
)
from .events import Event, event_from_dict, render_event
from .game import apply, is_legal, new_game, step
from .invariants import check_invariants
from .legal import (
    DECISION_KINDS,
    Pending,
    can_trade,
    legal_actions,
    pending_decisions,
    timeout_action,
)
from .record import (
    RANDOM_KINDS,
    Verification,
    make_record,
    random_outcomes,
    replay,
    state_digest,
    verify_record,
)
from .rng import GEN_KEYED, GEN_SPLITMIX, bot_rng, commitment
from .rules import PRESETS, SWITCH_NAMES, Ruleset, ruleset, ruleset_from_dict
from .state import BANK, SCHEMA_VERSION, SYSTEM, State
from .testing import force_dice, stack_deck

__all__ = [
    "BANK",
    "DECISION_KINDS",
    "GEN_KEYED",
    "GEN_SPLITMIX",
    "PRESETS",
    "RANDOM_KINDS",
    "RESIGN",
    "SCHEMA_VERSION",
    "SWITCH_NAMES",
    "SYSTEM",
    "Action",
    "CodecError",
    "EngineError",
    "Event",
    "GameOver",
    "HeuristicBot",
    "IllegalAction",
    "NotEnoughCash",
    "NotYourTurn",
    "Pending",
    "RandomBot",
    "RuleViolation",
    "Ruleset",
    "RulesetError",
    "State",
    "Terms",
    "UnknownAction",
    "Verification",
    "WrongPhase",
    "action_from_dict",
    "apply",
    "bot_rng",
    "can_trade",
    "check_invariants",
    "commitment",
    "event_from_dict",
    "force_dice",
    "from_dict",
    "is_legal",
    "legal_actions",
    "make_bot",
    "make_record",
    "new_game",
    "next_actor",
    "pending_decisions",
    "random_outcomes",
    "render_event",
    "replay",
    "ruleset",
    "ruleset_from_dict",
    "stack_deck",
    "state_digest",
    "step",
    "terms_from_dict",
    "timeout_action",
    "to_dict",
    "verify_record",
]
