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


class NoSuchPlayer(GameError):
    """A username that names nobody active."""

    status = 404


class NotAllowed(GameError):
    status = 403


class TooManyGames(GameError):
    """A bot account at its cap of concurrent games (``API_BOT_MAX_GAMES``)."""

    status = 409


class InvalidRequest(GameError):
    status = 422


class StateConflict(InvalidRequest):
    """Refused for the game's state now (started, full, not in play, your
    seat taken or missing), not for what was asked: the same request may
    succeed later. The API answers 409 (``api.problems.game_problem``), as
    HTTP says for a conflict with the resource's state; the pages show the
    message as for any refusal."""


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
