"""The streams' operations in the OpenAPI document.

Under the site's ASGI server (Daphne) ``api.stream`` answers these paths
before Django sees them, and follows the game live. These operations
document them (their lines, parameters and problems) and serve them where
there is no ASGI server, such as the test client or a WSGI server, which
cannot hold a response open: there they send the catch-up and end, as
``follow=false`` does.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Field, Query, Router, Schema

from api import stream_lines, user_events
from api.auth import need as _need
from api.models import SCOPE_READ
from api.problems import ERRORS, Problem, ProblemOut
from api.stream import CONTENT_TYPE, Refused, game_for, parse_since
from api.v1 import GameId

router = Router(tags=["streams"])


class StreamLineOut(Schema):
    """One line of a stream (NDJSON: one JSON object per line)."""

    type: str = Field(
        description="events, state, ping or end (game stream); your_move, game_start, "
        "game_end, notice or ping (events stream)."
    )
    version: int | None = Field(None, description="The game version the line brings you to.")


class StreamParams(Schema):
    since: int | None = Field(
        None,
        ge=0,
        description="Resume after this version: every version after it is sent first, from "
        "the stored events, then the state. Without it the stream starts with the state. "
        "A Last-Event-ID header is read when this is absent.",
    )
    follow: bool = Field(
        True, description="false: send the catch-up and end instead of following the game."
    )


class EventsParams(Schema):
    follow: bool = Field(True, description="false: send the games waiting on you and end.")


# The 200 answer is described here alone (``response`` gives it no model):
# with a model as well, the document listed the status twice, once as
# ninja's integer key and once as this string key, and Swagger UI refused the
# whole document ("duplicated mapping key"). Its content is NDJSON, not JSON.
NDJSON = {
    "responses": {
        200: {
            "description": "An NDJSON stream (see docs/api.md, 'Streams').",
            "content": {CONTENT_TYPE: {"schema": StreamLineOut.model_json_schema()}},
        }
    }
}


def _refused(exc: Refused) -> Problem:
    return Problem(exc.status, exc.detail, **exc.extra)


def _ndjson(lines: list[dict[str, Any]]) -> HttpResponse:
    return HttpResponse(b"".join(stream_lines.encode(line) for line in lines), CONTENT_TYPE)


@router.get(
    "/games/{game_id}/stream",
    response={200: None, 409: ProblemOut, **ERRORS},
    summary="Follow a game (NDJSON)",
    openapi_extra=NDJSON,
)
def game_stream(
    request: HttpRequest, params: Query[StreamParams], game_id: str = GameId
) -> HttpResponse:
    """The game's versions as they happen, one JSON object per line:
    `events` (what each version did), `state` (as `GET /games/{id}` shows it
    to you), `ping` every 20 s, and `end` when the game is over. Seat-private
    lines and fields go to their seat only."""
    user = _need(request, SCOPE_READ)
    try:
        game_pk, seat = game_for(user, game_id)
        since = params.since
        if since is None:
            since = parse_since(request.headers.get("Last-Event-ID"))
    except Refused as exc:
        raise _refused(exc) from None
    lines: list[dict[str, Any]] = []
    while True:
        batch = stream_lines.catch_up(game_pk, seat, since)
        lines += batch.lines
        since = batch.version
        if batch.ended or (batch.lines and batch.lines[-1]["type"] == "state"):
            return _ndjson(lines)


@router.get(
    "/stream/events",
    response={200: None, **ERRORS},
    summary="Your events (NDJSON)",
    openapi_extra=NDJSON,
)
def events_stream(request: HttpRequest, params: Query[EventsParams]) -> HttpResponse:
    """Announcements for you, one JSON object per line: first the games
    waiting on you (`your_move`), then `your_move` whenever a decision of
    yours holds a game up, `game_start`, `game_end`, your notices
    (`notice`) and a `ping` every 20 s."""
    user = _need(request, SCOPE_READ)
    return _ndjson(user_events.Follower(user).opening())
