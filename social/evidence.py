"""The evidence of a report, captured as it is when the report is filed:
later edits, deletions and the game's progress do not change it.

Each source takes the reporter's ``ref`` and returns a JSON-able dict, or
raises ``EvidenceError`` with words for the reporter. A reporter captures
only what they may see themself: the chat rooms they can read
(``live.chat.readable_rooms``), the games open to them (``games.access``),
the trade terms ``games.disclosure`` shows them.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from games import disclosure, engine
from games.access import check_viewer
from games.models import Game, GameEvent, Seat
from live.chat import readable_rooms
from live.models import ChatMessage
from people.errors import PeopleError
from social.models import Message

logger = logging.getLogger(__name__)

CONTEXT = 5  # chat lines or messages kept either side of the reported one
EVENTS = 30  # a game's latest public events kept


class EvidenceError(PeopleError):
    pass


def _at(value: Any) -> str:
    return value.isoformat() if value is not None else ""


def _line(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "author": message.author.username,
        "body": message.body,
        "at": _at(message.created_at),
    }


def _viewer(game: Game, reporter: Any, session: Any) -> Seat | None:
    """The reporter's seat in ``game`` (None: a spectator); refused as
    missing if the game is not open to them."""
    viewer = check_viewer(game, reporter, session)
    if viewer is None:
        raise EvidenceError(_("There is no such game."))
    return viewer.seat


def of_profile(reported: Any) -> dict[str, Any]:
    return {"username": reported.username, "display_name": reported.display_name}


def of_chat(ref: str, reporter: Any, reported: Any, session: Any = None) -> dict[str, Any]:
    """The reported chat line and the lines around it in its room."""
    pk = _int(ref)
    rows = ChatMessage.objects.select_related("game", "author")
    line = rows.filter(pk=pk).first() if pk is not None else None
    if line is None or line.author_id != reported.pk:
        raise EvidenceError(_("That chat line was not found."))
    seat = _viewer(line.game, reporter, session)
    if line.room not in readable_rooms(line.game, seat):
        raise EvidenceError(_("That chat line was not found."))
    room = ChatMessage.objects.filter(game=line.game, room=line.room).select_related("author")
    earlier = Q(created_at__lt=line.created_at) | Q(created_at=line.created_at, pk__lt=line.pk)
    later = Q(created_at__gt=line.created_at) | Q(created_at=line.created_at, pk__gt=line.pk)
    before = list(room.filter(earlier).order_by("-created_at", "-pk")[:CONTEXT])[::-1]
    after = list(room.filter(later).order_by("created_at", "pk")[:CONTEXT])
    return {
        "game": line.game.public_id,
        "room": line.room,
        "line": _line(line),
        "before": [_line(m) for m in before],
        "after": [_line(m) for m in after],
    }


def of_message(ref: str, reporter: Any, reported: Any) -> dict[str, Any]:
    """The reported private message and the messages around it in its
    conversation."""
    pk = _int(ref)
    message = (
        Message.objects.select_related("conversation").filter(pk=pk).first()
        if pk is not None
        else None
    )
    if message is None or message.sender_id != reported.pk or not _between(message, reporter):
        raise EvidenceError(_("That message was not found."))
    thread = Message.objects.filter(conversation_id=message.conversation_id)
    before = list(thread.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT])[::-1]
    after = list(thread.filter(pk__gt=message.pk).order_by("pk")[:CONTEXT])

    def row(m: Any) -> dict[str, Any]:
        sender = reported.username if m.sender_id == reported.pk else reporter.username
        return {"id": m.pk, "author": sender, "body": m.body, "at": _at(m.created_at)}

    return {
        "message": row(message),
        "before": [row(m) for m in before],
        "after": [row(m) for m in after],
    }


def _between(message: Any, reporter: Any) -> bool:
    """Whether the reporter is the other person of the message's conversation."""
    conversation = message.conversation
    return reporter.pk in (conversation.low_id, conversation.high_id)


def of_game(ref: str, reporter: Any, reported: Any, session: Any = None) -> dict[str, Any]:
    """The game as it is now: its version and latest public events."""
    game = Game.objects.filter(public_id=ref).first() if ref else None
    if game is None:
        raise EvidenceError(_("There is no such game."))
    _viewer(game, reporter, session)
    if not game.seats.filter(user=reported).exists():
        raise EvidenceError(_("%(name)s does not play in that game.") % {"name": reported.username})
    rows = list(
        GameEvent.objects.filter(game=game, audience_seat__isnull=True)
        .exclude(kind__in=("action", "note"))
        .order_by("-seq", "-index")[:EVENTS]
    )[::-1]
    return {
        "game": game.public_id,
        "version": game.version,
        "status": game.status,
        "events": [{"seq": r.seq, "line": _render(game, r.payload)} for r in rows],
    }


def _render(game: Game, payload: dict[str, Any]) -> str:
    try:
        state = engine.from_dict(game.state) if game.state else None
        event = engine.event_from_dict(payload)
        return engine.render_event(event, state.rules, state.names) if state else str(payload)
    except Exception:
        logger.debug("Event not rendered for a report: %s", payload, exc_info=True)
        return str(payload)


def of_trade(ref: str, reporter: Any, reported: Any, session: Any = None) -> dict[str, Any]:
    """A trade offer (``<public_id>:<offer id>``) between the reported person
    and anyone: who offered what to whom, its terms only where
    ``games.disclosure`` shows them to the reporter."""
    public_id, _sep, raw_id = (ref or "").partition(":")
    game = Game.objects.filter(public_id=public_id).first() if public_id else None
    trade_id = _int(raw_id)
    if game is None or trade_id is None:
        raise EvidenceError(_("That trade was not found."))
    seat = _viewer(game, reporter, session)
    book = disclosure.TradeBook.of_game(game.pk)
    parties = book.parties.get(trade_id)
    seats = {s.number: s for s in game.seats.select_related("user")}
    reported_seat = next((n for n, s in seats.items() if s.user_id == reported.pk), None)
    if parties is None or reported_seat not in parties:
        raise EvidenceError(_("That trade was not found."))
    version = next(v for v, t in book.proposed_in.items() if t == trade_id)
    audience = disclosure.Audience.of(game, seat.number if seat is not None else None)
    evidence: dict[str, Any] = {
        "game": game.public_id,
        "trade": trade_id,
        "version": version,
        "from": _seat_name(seats, parties[0]),
        "to": _seat_name(seats, parties[1]),
        "accepted": trade_id in book.accepted,
    }
    if book.terms_shown(version, audience):
        evidence["terms"] = trade_terms(game.pk, version)
    return evidence


def trade_terms(game_pk: int, version: int) -> dict[str, Any] | None:
    """The terms proposed in ``version`` (the proposing action's), or None."""
    action = (
        GameEvent.objects.filter(game_id=game_pk, seq=version, kind="action")
        .values_list("payload", flat=True)
        .first()
    )
    terms = (action or {}).get(disclosure.TERMS)
    return dict(terms) if isinstance(terms, dict) else None


def _seat_name(seats: dict[int, Seat], number: int) -> str:
    seat = seats.get(number)
    if seat is None:
        return str(number)
    return seat.user.username if seat.user is not None else seat.name


def _int(raw: Any) -> int | None:
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return None
    return value if 0 < value < 2**62 else None
