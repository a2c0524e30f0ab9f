"""Per-token rate limits: a budget for reads (GET, HEAD) and one for
writes, each counted per token in fixed windows in Redis
(``common.ratelimit``, ``RATE_LIMITS["api_read"]`` and ``["api_write"]``,
set by ``API_RATE_LIMIT_READ`` and ``API_RATE_LIMIT_WRITE``). Counted once
the token is known, before the endpoint runs, so a refused request changes
nothing. Another token of the same user has budgets of its own."""

from __future__ import annotations

from django.http import HttpRequest

from api.models import ApiToken
from api.problems import Problem
from common import ratelimit

READS = frozenset({"GET", "HEAD", "OPTIONS"})


def scope_of(request: HttpRequest) -> str:
    return "api_read" if request.method in READS else "api_write"


def count(request: HttpRequest, token: ApiToken) -> None:
    """Count the request against its token's budget; a 429 problem with
    ``Retry-After`` if it is spent."""
    scope = scope_of(request)
    try:
        ratelimit.hit(request, scope, account=f"token:{token.pk}")
    except ratelimit.RateLimited as exc:
        raise Problem(
            429,
            exc.message,
            slug="rate-limited",
            retry_after=exc.retry_after,
            headers={"Retry-After": str(exc.retry_after)},
        ) from None
