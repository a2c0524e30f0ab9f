"""The shape of an action kind's rule, for the modules that hold one.

A kind's module holds its check (raises ``IllegalAction`` before anything
changes), its apply (changes the state and appends the events, whose fields
``events.EVENT_FIELDS`` names) and a ``PAIRS`` table of them, which
``game`` merges into its runners after the seat check.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action
from .errors import IllegalAction, RuleViolation
from .events import EventLog
from .state import State

Check = Callable[[State, Action], None]
Do = Callable[[State, Action, EventLog], None]


def refuse(err: str, cls: type[IllegalAction] = RuleViolation) -> None:
    """Raise ``cls(err)`` if a check function found a problem (``err``)."""
    if err:
        raise cls(err)
