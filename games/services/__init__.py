"""The only code that writes games, seats and events.

Each function is one transaction: lock the game row, check, apply, save
state, version and events together, and broadcast and schedule on commit.
"""

from games.services.challenges import (
    accept_challenge,
    challenge_player,
    decline_challenge,
    open_challenges,
    withdraw_challenge,
)
from games.services.errors import (
    BlockedPlayerSeated,
    GameError,
    GameNotFound,
    IllegalMove,
    InvalidRequest,
    NotAllowed,
    StateConflict,
    TooManyGames,
    VersionConflict,
)
from games.services.lobby import (
    add_bot,
    create_game,
    create_seated_game,
    create_table_game,
    do_rotate_invite,
    join_game,
    leave_game,
    remove_bot,
    set_seed,
    start_game,
    use_suggested_orders,
)
from games.services.play import Played, play_action, play_bot_move, resign, submit_action
from games.services.removal import delete_game
from games.services.standing import set_standing_orders
from games.services.timers import end_vacation, expire_decision, reclaim_seat, start_vacation
from games.services.write import GameRows, read_game

__all__ = [
    "BlockedPlayerSeated",
    "GameError",
    "GameNotFound",
    "GameRows",
    "IllegalMove",
    "InvalidRequest",
    "NotAllowed",
    "Played",
    "StateConflict",
    "TooManyGames",
    "VersionConflict",
    "accept_challenge",
    "add_bot",
    "challenge_player",
    "create_game",
    "create_seated_game",
    "create_table_game",
    "decline_challenge",
    "delete_game",
    "do_rotate_invite",
    "end_vacation",
    "expire_decision",
    "join_game",
    "leave_game",
    "open_challenges",
    "play_action",
    "play_bot_move",
    "read_game",
    "reclaim_seat",
    "remove_bot",
    "resign",
    "set_seed",
    "set_standing_orders",
    "start_game",
    "start_vacation",
    "submit_action",
    "use_suggested_orders",
    "withdraw_challenge",
]
