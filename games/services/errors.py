"""Domain errors raised by the services; views turn them into messages."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """Base class: ``message`` is fit to show the person who asked."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(GameError):
    status = 404


class NotAllowed(GameError):
    status = 403


class TooManyGames(GameError):
    """A bot account at its cap of concurrent games (``API_BOT_MAX_GAMES``)."""

    status = 409


class InvalidRequest(GameError):
    status = 422


class IllegalMove(GameError):
    """The engine refused the action; nothing changed."""

    status = 422


class VersionConflict(GameError):
    """The client acted on a stale version. Carries the fresh game."""

    status = 409

    def __init__(self, message: str, game: Any) -> None:
        super().__init__(message)
        self.game = game


class BlockedPlayerSeated(GameError):
    """Someone the joiner blocked sits in the game: they join only once they
    have confirmed (``confirm_blocked``)."""

    status = 409
