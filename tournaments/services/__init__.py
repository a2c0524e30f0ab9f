"""The tournaments' services (the contract in docs/tournaments.md): each
call is one transaction under the event's row lock, raises
``tournaments.errors`` and changes nothing when it does; the event's page is
pushed after the commit."""

from tournaments.services.create import check_may_create, create_tournament
from tournaments.services.entries import (
    check_bar,
    check_may_join,
    join_tournament,
    late_join_open,
    withdraw_from_tournament,
    your_next_game,
)
from tournaments.services.rounds import close_registration, start_round

__all__ = [
    "check_bar",
    "check_may_create",
    "check_may_join",
    "close_registration",
    "create_tournament",
    "join_tournament",
    "late_join_open",
    "start_round",
    "withdraw_from_tournament",
    "your_next_game",
]
