"""RFC 9457 problem details: every error the API answers."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from django.http import HttpResponse

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
