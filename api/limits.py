"""Per-token rate limits: a budget for reads (GET, HEAD) and one for
writes, each counted per token in fixed windows in Redis
(``common.ratelimit``, ``RATE_LIMITS["api_read"]`` and ``["api_write"]``,
set by ``API_RATE_LIMIT_READ`` and ``API_RATE_LIMIT_WRITE``). Counted once
the token is known, before the endpoint runs, so a refused request changes
nothing. Another token of the same user has budgets of its own; but what
the pages limit per person (games created, joins, trade offers, challenges,
chat) is counted per account, in the pages' own counters (``count_person``),
so that a second door or a second token gets no second budget.

Tokens that fail (unknown, forged, revoked) are counted per client address
(``RATE_LIMITS["token_failed"]``, ``RATE_LIMIT_TOKEN_FAILED``), as failed
logins are: while the count is full every token from there is refused, the
right one too, or guessing could go on and only the hit would get through."""

from __future__ import annotations

from django.http import HttpRequest

from api import tokens
from api.models import ApiToken
from api.problems import Problem
from common import ratelimit

READS = frozenset({"GET", "HEAD", "OPTIONS"})
FAILED = "token_failed"


def scope_of(request: HttpRequest) -> str:
    return "api_read" if request.method in READS else "api_write"


def _too_many(exc: ratelimit.RateLimited) -> Problem:
    return Problem(
        429,
        exc.message,
        slug="rate-limited",
        retry_after=exc.retry_after,
        headers={"Retry-After": str(exc.retry_after)},
    )


def count_person(request: HttpRequest, scope: str) -> None:
    """Count a per-person scope (``common.ratelimit.PER_PERSON``: games
    created, joins, trade offers, challenges, chat) in the same counter as
    the pages do, keyed by the token's user (``request.user``), on top of
    the token's own budget; a 429 problem with ``Retry-After`` if it is full."""
    assert scope in ratelimit.PER_PERSON, scope
    try:
        ratelimit.hit(request, scope)
    except ratelimit.RateLimited as exc:
        raise _too_many(exc) from None


def authenticate(request: HttpRequest, token: str) -> ApiToken | None:
    """The live token row for ``token`` (``api.tokens.authenticate``), its
    failures counted against the client's address, and the request counted
    against the token's budget. A 429 problem while the address
    has failed too often, whichever token it sends, the right one too.

    One Redis round trip either way: the token is looked up first, then the
    address's failures are checked and the token's budget counted together
    (or, for a token that failed, the failure counted: refused, as a check
    first would have, once the count was already full)."""
    row = tokens.authenticate(token)
    if row is None:
        try:
            ratelimit.hit(request, FAILED)
        except ratelimit.RateLimited as exc:
            raise _too_many(exc) from None
        return None
    try:
        ratelimit.check_and_hit(
            request, FAILED, scope_of(request), counted_account=f"token:{row.pk}"
        )
    except ratelimit.RateLimited as exc:
        raise _too_many(exc) from None
    return row
