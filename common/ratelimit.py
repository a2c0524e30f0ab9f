"""Rate limits in the site's cache (Redis): fixed windows per user, client
address, account or account-and-address pair.

A window opens with the first request counted and closes when its counter
expires; its time to live tells a refused request when to come back
(``Retry-After``). All the rates of a request are counted in one atomic
round trip (``common.cache.RedisCache.count_windows``): a move pays
for one, not four. Fixed windows let a burst of twice the rate straddle two
windows; that is fine for stopping floods.

Only views and API endpoints call these: bots and timers act through
``games.services`` directly and are never limited. A view checks before it
calls a service, so a refused request changes nothing.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy
from redis.exceptions import RedisError

from common import redis_health
from common.cache import RedisCache
from common.env import Rate

logger = logging.getLogger(__name__)

MESSAGES = {
    "chat": "You are sending messages too quickly.",
    "create": "You have created too many games recently.",
    "join": "You have joined too many games recently.",
    "trade": "You are proposing trades too quickly.",
    "message": gettext_lazy("You are sending private messages too quickly."),
    "challenge": gettext_lazy("You are sending challenges too quickly."),
    "action": "You are acting too quickly.",
    "report": gettext_lazy("You have sent many reports recently."),
    "login_failed": "Too many failed login attempts.",
    "token_failed": gettext_lazy(
        "Too many requests with a wrong or revoked API token from this address."
    ),
    "api_read": "This token is reading too quickly.",
    "api_write": "This token is writing too quickly.",
}


# The scopes counted per person whichever door they come through: the page
# and the API call ``hit`` with the same scope, and the user rates key on
# the account's pk (``_subject``), so both doors fill one counter. A new
# per-person limit (private messages: "message") is a scope here, a rate in
# ``RATE_LIMITS`` and a ``hit`` in each door (``api.limits.count_person``).
PER_PERSON = frozenset({"chat", "challenge", "create", "join", "trade", "message"})


class RateLimited(Exception):
    def __init__(self, scope: str, retry_after: int) -> None:
        self.retry_after = retry_after
        self.message = f"{MESSAGES[scope]} Try again in {wait_words(retry_after)}."
        super().__init__(self.message)


def wait_words(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minutes"


def client_ip(request: HttpRequest) -> str:
    """The client's address: the connection's, unless ``TRUSTED_PROXY_COUNT``
    proxies stand in front, when it is the address the outermost of them saw
    (the same rule as allauth's ``ALLAUTH_TRUSTED_PROXY_COUNT``). Anyone can
    write X-Forwarded-For, so only entries our own proxies appended count.
    An IPv6 client usually holds a whole /64, so that is what is counted."""
    ip = request.META.get("REMOTE_ADDR") or "unknown"
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies > 0:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if len(hops) >= proxies and hops[-proxies]:
            ip = hops[-proxies]
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def _subject(request: HttpRequest, per: str, account: str | None) -> str | None:
    if per == "ip":
        return client_ip(request)
    if per == "user":
        user: Any = request.user
        return str(user.pk) if user.is_authenticated else None
    assert account is not None, f"{per} rates need an account"
    # Typed logins are arbitrary text: hashed, they make valid cache keys.
    subject = account if per in ("account", "token") else f"{account}|{client_ip(request)}"
    return hashlib.sha256(subject.encode()).hexdigest()[:32]


def _keys(request: HttpRequest, scope: str, account: str | None) -> list[tuple[str, Rate]]:
    keys = []
    for rate in settings.RATE_LIMITS[scope]:
        subject = _subject(request, rate.per, account)
        if subject is not None:
            keys.append((f"rl:{scope}:{rate.per}:{rate.count}/{rate.seconds}:{subject}", rate))
    return keys


def _counts(
    keys: list[tuple[str, Rate]], *, count: bool | list[bool]
) -> list[tuple[str, Rate, int, int]]:
    counter: RedisCache = cache  # type: ignore[assignment]
    try:
        found = counter.count_windows([(key, rate.seconds) for key, rate in keys], count=count)
    except RedisError as exc:
        # Without Redis the site is limping already; refusing every move
        # and message too would stop it. (The outage itself is logged once,
        # by common.redis_health.)
        down = isinstance(exc, redis_health.RedisDown)
        logger.warning("Rate limits are not counted: Redis does not answer.", exc_info=not down)
        return []
    return [(key, rate, n, left) for (key, rate), (n, left) in zip(keys, found, strict=True)]


def hit(request: HttpRequest, scope: str, *, account: str | None = None) -> None:
    """Count one request against every rate of ``scope``; ``RateLimited``
    (with the longest wait) if any is over."""
    counts = _counts(_keys(request, scope, account), count=True)
    waits = [max(1, left) for _, rate, n, left in counts if n > rate.count]
    if waits:
        raise RateLimited(scope, max(waits))


def check(request: HttpRequest, scope: str, *, account: str | None = None) -> None:
    """Like ``hit`` without counting: for limits on failures, which are
    counted only once they happen."""
    counts = _counts(_keys(request, scope, account), count=False)
    waits = [max(1, left) for _, rate, n, left in counts if n >= rate.count]
    if waits:
        raise RateLimited(scope, max(waits))


def check_and_hit(
    request: HttpRequest,
    checked: str,
    counted: str,
    *,
    checked_account: str | None = None,
    counted_account: str | None = None,
) -> None:
    """``check`` of one scope and ``hit`` of another in one round trip (an
    API request: the failed tokens of its address, and its token's budget);
    ``RateLimited`` for the checked scope first."""
    looked = _keys(request, checked, checked_account)
    hits = _keys(request, counted, counted_account)
    counts = _counts(looked + hits, count=[False] * len(looked) + [True] * len(hits))
    if not counts:
        return  # Redis does not answer (logged): nothing is limited
    for scope, part, full in (
        (checked, counts[: len(looked)], 0),
        (counted, counts[len(looked) :], 1),
    ):
        waits = [max(1, left) for _, rate, n, left in part if n >= rate.count + full]
        if waits:
            raise RateLimited(scope, max(waits))


def too_many(request: HttpRequest, exc: RateLimited, back: str = "") -> HttpResponse:
    """The 429 page for a plain (non-htmx) post."""
    response = render(request, "429.html", {"message": exc.message, "back": back}, status=429)
    return with_retry_after(response, exc)


def with_retry_after(response: HttpResponse, exc: RateLimited) -> HttpResponse:
    response["Retry-After"] = str(exc.retry_after)
    return response
