"""The lines of a game's stream, read from the database (synchronous).

Every line is one JSON object and carries ``version``:

- ``{"type": "events", "version": N, "events": [...]}``: what version N did,
  from the stored event rows, as the holder of the stream may see them;
- ``{"type": "state", "version": N, ...}``: the game as ``GET /games/{id}``
  shows it to them (public state, their private view, decisions, legal
  actions, deadlines), after each catch-up;
- ``{"type": "ping", "version": N}``: a keep-alive;
- ``{"type": "end", "version": N, "status": ..., ...}``: the last line.

What a seat may not see stays out, as on the page: a sealed bid's action
and note rows are stored for their bidder only (``audience_seat``), and a
trade's terms are shown in an action row as ``games.disclosure`` lets the
holder of the stream read them (its two parties while it is open).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from api import reads
from common.rows import reader
from games import disclosure, engine, services
from games.models import Game, GameEvent
from games.services.statements import Statement
from games.web.presenters import event_text

MAX_VERSIONS = 500  # versions read per catch-up query
ENDED = (Game.Status.FINISHED, Game.Status.ABANDONED)


def encode(line: dict[str, Any]) -> bytes:
    return json.dumps(line, separators=(",", ":"), default=str).encode() + b"\n"


def ping(version: int) -> dict[str, Any]:
    return {"type": "ping", "version": version}


@dataclass
class Batch:
    """What a read found: the lines to send, the version they bring the
    stream to, and whether the game has ended (the end line is among them)."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    version: int = 0
    ended: bool = False


def event_line(
    row: GameEvent,
    audience: disclosure.Audience,
    s: engine.State | None,
    book: disclosure.TradeBook | None = None,
) -> dict[str, Any]:
    payload = dict(row.payload)
    if row.kind == "action":
        shown = disclosure.action(payload, row.seq, audience, book or disclosure.TradeBook())
        return {"kind": "action", "action": shown}
    if row.kind == "note":
        return {"kind": "note", "text": str(payload.get("text", ""))}
    if row.kind == "start":
        return {"kind": "start", **payload}
    text = event_text(row.kind, payload, s.rules, s.names) if s is not None else row.kind
    return {**payload, "text": text}


def _events_statement(game_pk: int, after: int, through: int) -> Statement:
    rows = reader(GameEvent)
    return (
        f"SELECT {rows.columns()} FROM {rows.table} WHERE {rows.table}.game_id = %s"
        f" AND {rows.table}.seq > %s AND {rows.table}.seq <= %s"
        f" ORDER BY {rows.table}.seq, {rows.table}.{connection.ops.quote_name('index')}",
        [game_pk, after, through],
    )


def catch_up(game_pk: int, viewer: int | None, since: int | None) -> Batch:
    """The lines after version ``since`` (None: only the current state),
    ending with the state line, and the end line if the game is over.

    One round trip: the game row is read first, and the event rows after
    it, so those of every version up to the game's are there (they
    committed with it); rows of later versions are left for the next read."""
    more = []
    if since is not None:
        # At most MAX_VERSIONS per read; the caller reads again for the rest.
        more.append(_events_statement(game_pk, since, since + MAX_VERSIONS))
    rows = services.read_game(game_pk, more=more)
    if rows is None:
        raise Game.DoesNotExist(f"game {game_pk}")
    game = rows.game
    seat = next((s for s in rows.seats if s.number == viewer), None) if viewer is not None else None
    state = engine.from_dict(game.state) if game.state else None
    batch = Batch(version=game.version)
    if since is not None and since < game.version:
        through = min(game.version, since + MAX_VERSIONS)
        events = reader(GameEvent)
        audience = disclosure.Audience.of(game, viewer)
        read = [row for row in map(events.build, rows.more[0]) if row.seq <= through]
        # The offers' parties, only when the batch has terms to show or not.
        offered = any(row.kind == "action" and "terms" in row.payload for row in read)
        book = disclosure.TradeBook.of_game(game_pk) if offered else None
        by_version: dict[int, list[dict[str, Any]]] = {}
        for row in read:
            if row.audience_seat in (None, viewer):
                by_version.setdefault(row.seq, []).append(event_line(row, audience, state, book))
        for version in range(since + 1, through + 1):
            batch.lines.append(
                {"type": "events", "version": version, "events": by_version.get(version, [])}
            )
        if through < game.version:
            batch.version = through
            return batch
    batch.lines.append({"type": "state", **reads.game_view(game, seat, rows.seats, rows.deadlines)})
    if game.status in ENDED:
        batch.ended = True
        batch.lines.append(end_line(game, state))
    return batch


def end_line(game: Game, state: engine.State | None) -> dict[str, Any]:
    return {
        "type": "end",
        "version": game.version,
        "status": str(game.status),
        "end_reason": game.end_reason or None,
        "winner": state.winner if state is not None and state.finished else None,
    }


def current_version(game_pk: int) -> int | None:
    version: int | None = Game.objects.filter(pk=game_pk).values_list("version", flat=True).first()
    return version
