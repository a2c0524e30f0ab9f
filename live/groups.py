"""Who hears what: the groups sockets join, and sending to them.

A game's audiences (its spectators, its players, each seat) get their pushes
through ``live.fanout`` (straight to this process's sockets, Redis pub/sub to
the others); the game group itself (presence, chat), the lobby, the watch
list, "Your games", a person's unread count and a waiting page through the
channel layer.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from live import fanout

LOBBY_GROUP = "lobby"
WATCH_GROUP = "watch"


def game_group(game_pk: int) -> str:
    return f"game-{game_pk}"


def spectators_group(game_pk: int) -> str:
    return f"game-{game_pk}-spectators"


def players_group(game_pk: int) -> str:
    return f"game-{game_pk}-players"


def seat_group(game_pk: int, number: int) -> str:
    return f"game-{game_pk}-seat-{number}"


def win_bar_group(game_pk: int) -> str:
    """The spectators who see the win bar: not the home page's glances,
    which show none (``live.winbar``)."""
    return f"game-{game_pk}-win-bar"


def audiences_for(game_pk: int, seat: int | None, *, glance: bool = False) -> list[str]:
    """The groups whose game pushes this listener gets (through
    ``live.fanout``); the game group itself (presence, chat) is on the layer.
    ``seat`` is None only for a viewer who holds no seat in the game: a
    seat's holder is a player here whatever their socket asked for."""
    if seat is None:
        if glance:
            return [spectators_group(game_pk)]
        return [spectators_group(game_pk), win_bar_group(game_pk)]
    return [players_group(game_pk), seat_group(game_pk, seat)]


def is_audience(group: str) -> bool:
    return group.startswith("game-") and not group.removeprefix("game-").isdigit()


def live_message(html: str) -> dict[str, Any]:
    return {"type": "live.push", "html": "<!--live-->" + html}


def send(messages: list[tuple[str, dict[str, Any]]]) -> threading.Event | None:
    """Send each (group, message): an audience's game pushes through
    ``live.fanout``, the rest (lobby, watch list) through the channel layer.
    Returns what ``fanout.publish`` returns for the audiences."""
    done = fanout.publish([(g, m) for g, m in messages if is_audience(g)])
    _layer_send([(g, m) for g, m in messages if not is_audience(g)])
    return done


def _layer_send(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """In one hop to the event loop. A group_send costs channels-redis four
    round trips to Redis, so the groups are sent to side by side; a group
    named twice gets its messages in order."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        if len({group for group, _ in messages}) == len(messages):
            await asyncio.gather(*(layer.group_send(g, m) for g, m in messages))
            return
        for group, message in messages:
            await layer.group_send(group, message)

    async_to_sync(send_all)()


def user_games_group(user_pk: int) -> str:
    return f"user-{user_pk}-games"


def waiting_group(game_pk: int) -> str:
    return f"waiting-{game_pk}"


def person_group(user_pk: int) -> str:
    """Every socket of one signed-in person (their unread count)."""
    return f"user-{user_pk}-unread"
