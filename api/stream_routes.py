"""The streams' operations: who may open which stream, with what.

Under the site's ASGI server the consumer of these paths
(``api.stream.StreamConsumer``) has Django answer the request, so the API's
token check, parameters and problems are these operations', as for any
other; it then follows the stream they open. Where no ASGI server holds a
response open (the test client, WSGI) they send the catch-up and end, as
``follow=false`` does. They also document the streams in the OpenAPI
document.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from ninja import Field, Query, Router, Schema

from api import auth
from api.models import SCOPE_READ
from api.problems import ERRORS, Problem, ProblemOut
from api.stream import CONTENT_TYPE, EventsStream, GameStream
from api.v1 import GameId
from common.numbers import whole_number

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


def _last_event_id(request: HttpRequest) -> int | None:
    """``since`` from a Last-Event-ID header, as a reconnecting client sends it."""
    header = request.headers.get("Last-Event-ID")
    if not header:
        return None
    since = whole_number(header, digits=10)
    if since is None:
        raise Problem(422, "since must be a game version: a whole number, 0 or more.")
    return since


@router.get(
    "/games/{game_id}/stream",
    response={200: None, 409: ProblemOut, **ERRORS},
    summary="Follow a game (NDJSON)",
    openapi_extra=NDJSON,
)
def game_stream(
    request: HttpRequest, params: Query[StreamParams], game_id: str = GameId
) -> HttpResponseBase:
    """The game's versions as they happen, one JSON object per line:
    `events` (what each version did), `state` (as `GET /games/{id}` shows it
    to you), `ping` every 20 s, and `end` when the game is over. Seat-private
    lines and fields go to their seat only."""
    user = auth.need(request, SCOPE_READ)
    viewer = auth.visible(game_id, user)
    since = params.since if params.since is not None else _last_event_id(request)
    seat = viewer.seat.number if viewer.seat is not None else None
    return GameStream(viewer.game.pk, seat, since, params.follow, user_pk=user.pk).answer(request)


@router.get(
    "/stream/events",
    response={200: None, **ERRORS},
    summary="Your events (NDJSON)",
    openapi_extra=NDJSON,
)
def events_stream(request: HttpRequest, params: Query[EventsParams]) -> HttpResponseBase:
    """Announcements for you, one JSON object per line: first the games
    waiting on you (`your_move`), then `your_move` whenever a decision of
    yours holds a game up, `game_start`, `game_end`, your notices
    (`notice`) and a `ping` every 20 s."""
    return EventsStream(auth.need(request, SCOPE_READ), params.follow).answer(request)
