"""Bot accounts in games: who may sit with whom.

A bot account (``accounts.User.bot_account``) is a person's program playing
through the API. Without its host's leave (``Game.allow_bot_accounts``), a
game never seats people and bot accounts together: people are rated among
people, bot accounts among bot accounts (``ratings.services.rating_pool``).
With it, bot accounts join like anyone and the game is rated in the
people's pool. Site bots (``Seat.bot_kind``) are another thing altogether.
"""

from __future__ import annotations

from typing import Any

BOT_ACCOUNT_NEEDS_LEAVE = (
    "This game is rated among people and its host has not allowed bot accounts in it. "
    "Join a game whose host allows bot accounts, or one among bot accounts."
)
PERSON_NEEDS_LEAVE = (
    "This game is among bot accounts and its host has not allowed people and bot accounts "
    "to be rated together: it is rated in the bot accounts' pool."
)


def is_bot_account(user: Any) -> bool:
    return bool(getattr(user, "bot_account", False))


def seating_refusal(game: Any, seated_users: list[Any], user: Any) -> str:
    """Why ``user`` may not sit down beside ``seated_users`` (the game's
    other seated people), or "" if they may."""
    if game.allow_bot_accounts:
        return ""
    joining_bot = is_bot_account(user)
    for other in seated_users:
        if other.pk != user.pk and is_bot_account(other) != joining_bot:
            return BOT_ACCOUNT_NEEDS_LEAVE if joining_bot else PERSON_NEEDS_LEAVE
    return ""
