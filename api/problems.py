"""RFC 9457 problem details: every error the API answers."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from django.http import HttpResponse
from ninja import Field, Schema

CONTENT_TYPE = "application/problem+json"
TYPE_BASE = "/api/v1/problems/"

# The ``type`` slug of each status the API answers.
SLUGS = {
    400: "malformed",
    401: "unauthenticated",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    422: "unprocessable",
    429: "rate-limited",
    503: "unavailable",
}


class Problem(Exception):
    """Raised inside an endpoint; answered as a problem document (the
    handler is ``api.v1``'s)."""

    def __init__(self, status: int, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.extra = extra


def problem(
    status: int,
    detail: str,
    *,
    slug: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> HttpResponse:
    slug = slug or SLUGS.get(status, "error")
    body = {
        "type": TYPE_BASE + slug,
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        **extra,
    }
    response = HttpResponse(json.dumps(body), status=status, content_type=CONTENT_TYPE)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


class ProblemOut(Schema):
    type: str = Field(description="A URI reference naming the kind of problem.")
    title: str = Field(description="The HTTP status phrase.")
    status: int = Field(description="The HTTP status code.")
    detail: str = Field(description="What went wrong, fit to show a person.")


# Every endpoint may answer these (429: the token's budget is spent).
ERRORS = {
    400: ProblemOut,
    401: ProblemOut,
    403: ProblemOut,
    404: ProblemOut,
    422: ProblemOut,
    429: ProblemOut,
}


def game_problem(exc: Any) -> Problem:
    """A service's refusal (``games.services.GameError``) as a problem."""
    from games import services

    if isinstance(exc, services.VersionConflict):
        return Problem(
            409,
            "The game moved on before your action arrived, so nothing was done.",
            slug="stale-version",
            version=exc.game.version,
        )
    if isinstance(exc, services.GameNotFound):
        return Problem(404, "There is no such game.")
    if isinstance(exc, services.TooManyGames):
        return Problem(409, exc.message, slug="too-many-games")
    if isinstance(exc, services.StateConflict):
        return Problem(409, exc.message)
    if isinstance(exc, services.BlockedPlayerSeated):
        return Problem(409, exc.message, slug="blocked-player-seated")
    return Problem(exc.status if 400 <= exc.status < 500 else 400, exc.message)
