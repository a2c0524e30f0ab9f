"""A game's chat as its reader sees it on the page (``live.chat``): the
rooms they may read, without the lines of people they blocked or muted, or
that their "who may chat in my games" keeps out, and nothing with "no chat"."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Path, Router, Schema

from api.auth import need, visible
from api.models import SCOPE_READ
from api.problems import ERRORS
from live import chat
from live.chatview import chat_view

router = Router(tags=["chat"])

GameId = Path(..., pattern=r"^[A-Za-z0-9]{1,16}$", description="The game's public id.")  # type: ignore[type-arg]


class ChatLineOut(Schema):
    id: int
    author: str = Field(description="The author's username.")
    author_name: str = Field(description="The name the site shows for them.")
    body: str
    at: str = Field(description="When it was posted (ISO 8601).")


class ChatRoomOut(Schema):
    name: str = Field(description="players or spectators.")
    lines: list[ChatLineOut] = Field(description=f"The last {chat.HISTORY}, oldest first.")


class ChatOut(Schema):
    chat_off: bool = Field(description="You turned chat off (no_chat): no room is shown.")
    rooms: list[ChatRoomOut]


@router.get("/games/{game_id}/chat", response={200: ChatOut, **ERRORS}, summary="A game's chat")
def game_chat(request: HttpRequest, game_id: str = GameId) -> dict[str, Any]:
    """The rooms you may read (the players', once you sit in the game; the
    spectators', watching a public game, and for its players once it has
    ended), as the game page shows them."""
    user = need(request, SCOPE_READ)
    viewer = visible(game_id, user)
    view = chat_view(user, seated=viewer.seat is not None)
    rooms = [] if view.no_chat else chat.readable_rooms(viewer.game, viewer.seat)
    return {
        "chat_off": view.no_chat,
        "rooms": [
            {"name": room, "lines": [_line(m) for m in chat.history(viewer.game, room, view)]}
            for room in rooms
        ],
    }


def _line(message: Any) -> dict[str, Any]:
    return {
        "id": message.pk,
        "author": message.author.username,
        "author_name": message.author.public_name,
        "body": message.body,
        "at": message.created_at.isoformat(),
    }
