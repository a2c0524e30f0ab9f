"""Errors raised by the engine. Every message is fit to show a player."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalAction(EngineError):
    """The action is not allowed now. Nothing was changed."""


class NotYourTurn(IllegalAction):
    """The player may not take this action at this moment."""


class WrongPhase(IllegalAction):
    """The game is not at a point where this action makes sense."""


class NotEnoughCash(IllegalAction):
    """The player does not have the cash this needs."""


class RuleViolation(IllegalAction):
    """The action breaks a rule of the game (even building, mortgages, ...)."""


class UnknownAction(IllegalAction):
    """The action kind or its parameters are not recognised."""


class GameOver(IllegalAction):
    """The game has ended."""


class RulesetError(EngineError):
    """A ruleset or switch value is invalid."""


class CodecError(EngineError):
    """A serialised state, action or record cannot be read."""


class SetupError(EngineError):
    """The position asked of ``setup`` is impossible."""
