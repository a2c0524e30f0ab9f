"""Game chat: who may read and write which room, and posting a message.

``do_post_message`` is the only writer. It stores the message and pushes it,
once the transaction commits, to exactly the sockets allowed to read it.
The view limits how fast people post (``RATE_LIMITS["chat"]``) before calling it.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from common import text
from games.models import Game, Seat
from games.web.regions import NO_CSRF
from live import chatguard, groups
from live.chatview import EVERYONE, ChatView, chat_view
from live.models import MAX_LENGTH, ChatMessage
from people.models import Report
from people.relations import chat_timed_out_until

logger = logging.getLogger(__name__)

Room = ChatMessage.Room
HISTORY = 50


class ChatError(Exception):
    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def is_finished(game: Game) -> bool:
    return game.status in (Game.Status.FINISHED, Game.Status.ABANDONED)


def readable_rooms(game: Game, seat: Seat | None) -> list[str]:
    """Players read their room; spectators theirs, and the players only once
    the game is over."""
    if seat is None:
        return [Room.SPECTATORS] if game.is_public else []
    rooms: list[str] = [Room.PLAYERS]
    if is_finished(game) and game.is_public:
        rooms.append(Room.SPECTATORS)
    return rooms


def can_post(game: Game, seat: Seat | None, user: Any, room: str) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if room == Room.PLAYERS:
        return seat is not None
    return room == Room.SPECTATORS and seat is None and game.is_public


def check_body(raw: str) -> str:
    body = " ".join((raw or "").split())
    if "\x00" in body:  # PostgreSQL cannot store it
        raise ChatError("Messages cannot contain NUL characters.")
    if not body:
        raise ChatError("Write something first.")
    if not text.has_visible(body):
        # Zero-width spaces and the like: a line that reads as blank.
        raise ChatError(_("Write something first: this message has no visible character."))
    if len(body) > MAX_LENGTH:
        raise ChatError(f"Keep it under {MAX_LENGTH} characters.")
    return body


def room_group(game: Game, room: str) -> str:
    if room == Room.PLAYERS:
        return groups.players_group(game.pk)
    # Once the game is over the players may read the spectators' room too.
    if is_finished(game):
        return groups.game_group(game.pk)
    return groups.spectators_group(game.pk)


def check_chat_standing(user: Any) -> None:
    """A moderator's chat timeout refuses every line until it ends, saying until when."""
    until = chat_timed_out_until(user)
    if until is not None:
        when = until.astimezone(dt.UTC).strftime("%d %b %Y, %H:%M UTC")
        raise ChatError(
            _("A moderator has timed you out of chat until %(when)s.") % {"when": when}, 403
        )


def do_post_message(
    *, game: Game, seat: Seat | None, user: Any, room: str, body: str
) -> ChatMessage:
    if room not in Room.values or not can_post(game, seat, user, room):
        raise ChatError("You cannot write in this chat.", 403)
    check_chat_standing(user)
    body = check_body(body)
    try:
        body = chatguard.check_line(user, body, where=game.public_id)
    except chatguard.LineRefused as exc:
        raise ChatError(exc.message, exc.status) from None
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, room=room, author=user, body=body)
        transaction.on_commit(lambda: push_message(game, message))
    return message


def push_message(game: Game, message: ChatMessage) -> None:
    if getattr(message.author, "shadow_muted", False):
        # Shadow-muted: the line reaches nobody else; its author's own page
        # gets it in the answer to the post (live.views).
        return
    context = {"message": message, "room": message.room, **line_context(game)}
    html = render_to_string("live/chat_append.html", context)
    signed = render_to_string("live/chat_append.html", {**context, "controls": True})
    # The author goes with the line: each socket drops it if its viewer
    # does not see them (``live.chatview``), and shows the mute, block and
    # report controls (``signed``) to a signed-in viewer who is not its author.
    pushed = {
        **groups.live_message(html),
        "chat_author": message.author_id,
        "signed": groups.live_message(signed)["html"],
    }
    try:
        groups.send([(room_group(game, message.room), pushed)])
    except Exception:
        # Stored already (the view checked Redis just before): readers get
        # it with their next snapshot or page.
        logger.exception("Could not push chat message %s", message.pk)


def line_context(game: Game) -> dict[str, Any]:
    """What a line's mute, block and report controls need."""
    return {"game_url": game.get_absolute_url(), "report_reasons": Report.Reason.choices}


def history(game: Game, room: str, view: ChatView = EVERYONE) -> list[ChatMessage]:
    rows = view.narrow(ChatMessage.objects.filter(game=game, room=room))
    # A shadow-muted author's lines are shown to that author alone.
    rows = rows.exclude(Q(author__shadow_muted=True) & ~Q(author_id=view.viewer_id))
    recent = rows.select_related("author").order_by("-created_at", "-pk")[:HISTORY]
    return list(reversed(recent))


def chat_context(
    game: Game, seat: Seat | None, user: Any, view: ChatView | None = None
) -> dict[str, Any]:
    """``view``: whose lines to show, by default ``user``'s own."""
    if view is None:
        view = chat_view(user, seated=seat is not None)
    rooms = []
    # "No chat": no pane at all, so no history and no form either.
    for room in [] if view.no_chat else readable_rooms(game, seat):
        rooms.append(
            {
                "name": room,
                "label": "Players' chat" if room == Room.PLAYERS else "Spectators' chat",
                "messages": history(game, room, view),
                "can_post": can_post(game, seat, user, room),
                "url": f"{game.get_absolute_url()}chat/{room}",
            }
        )
    return {
        "rooms": rooms,
        "max_length": MAX_LENGTH,
        "logged_in": getattr(user, "is_authenticated", False),
        "viewer_id": view.viewer_id,
        **line_context(game),
        "login_url": f"/accounts/login/?next={game.get_absolute_url()}",
    }


def pane_html(game_pk: int, seat_number: int | None, user: Any) -> str:
    """The chat pane as ``user`` sees it now, for their open socket (after a
    block or a mute, or when the players' room is unveiled at the end)."""
    game = Game.objects.get(pk=game_pk)
    seat = game.seats.filter(number=seat_number).first() if seat_number is not None else None
    return render_to_string("live/chat.html", {**chat_context(game, seat, user), **NO_CSRF})
