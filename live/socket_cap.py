"""At most ``SOCKETS_PER_ACCOUNT`` live sockets per signed-in account, across
every process.

Each open socket of a person is one entry of a Redis sorted set, scored by
the time it expires; its process pushes that forward every
``REFRESH_SECONDS`` while the socket lives (one refresh for all of the
process's places, ``live.beats``) and removes it when it closes. A process
that dies leaves its entries to expire within ``TTL_SECONDS``, so no ghost
holds a place for long (the counter of ``live.presence.person_connected``,
made for pushes, may stay too high for a day: a cap on it would lock people
out). Claiming counts, drops the expired and adds in one script, so two
sockets racing for the last place cannot both have it.

The API's streams (``api.stream``) take places in the same count: they
hold a connection open as a socket does.

Anonymous sockets are not counted here: they are limited where they connect
from, and their pages push nothing of a person.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator

import redis.asyncio as aioredis
from django.conf import settings
from django.utils.translation import gettext

from common import redis_health
from live.beats import Beat, Due

logger = logging.getLogger(__name__)

CLOSE_TOO_MANY = 4429  # the page does not come back by itself (static/js/live.js)
REFRESH_SECONDS = 20
TTL_SECONDS = 3 * REFRESH_SECONDS  # survives two missed refreshes

_CLAIM = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[2])
    and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]) * 2)
return 1
"""


def too_many_words() -> str:
    # A close reason must fit in 123 bytes.
    return gettext(
        "Too many live pages and streams are open on this account: close some, then try again."
    )


def _redis() -> aioredis.Redis:
    return redis_health.loop_client(settings.REDIS_URL)


def _key(user_pk: int) -> str:
    return f"{settings.REDIS_PREFIX}:live:sockets-open:{user_pk}"


async def claim(user_pk: int, channel_name: str) -> bool:
    """Count this socket among its person's; False if they have as many
    open as the cap allows. Without Redis it is let through: the socket
    cannot work anyway and is closed with try-again-later by its consumer."""
    try:
        with redis_health.guarded():
            answer = await _redis().eval(
                _CLAIM,
                1,
                _key(user_pk),
                time.time(),
                channel_name,
                settings.SOCKETS_PER_ACCOUNT,
                TTL_SECONDS,
            )
    except redis_health.ERRORS:
        return True
    return bool(int(answer))


async def refresh(user_pk: int, channel_name: str) -> None:
    await _refresh({user_pk: {channel_name: None}})


async def _refresh(due: Due[None]) -> None:
    """Every due person's places, in one round trip (``live.beats``)."""
    now = time.time()
    with redis_health.guarded():
        async with _redis().pipeline(transaction=False) as pipe:
            for user_pk, places in due.items():
                pipe.zadd(_key(user_pk), dict.fromkeys(places, now + TTL_SECONDS))
                pipe.expire(_key(user_pk), TTL_SECONDS * 2)
            await pipe.execute()


# The places of this process's sockets and streams, kept together: one task
# and one round trip per process, not one per socket.
PLACES: Beat[None] = Beat("socket places", lambda: REFRESH_SECONDS, _refresh)


async def release(user_pk: int, channel_name: str) -> None:
    await _redis().zrem(_key(user_pk), channel_name)


@contextlib.asynccontextmanager
async def held(user_pk: int, member: str) -> AsyncIterator[None]:
    """A place claimed already (``claim``), kept while the block runs and
    given back when it ends (an API stream's whole life)."""
    PLACES.add(user_pk, member, None)
    try:
        yield
    finally:
        PLACES.remove(user_pk, member)
        with contextlib.suppress(Exception):
            await release(user_pk, member)


async def open_count(user_pk: int) -> int:
    """This person's live sockets now (for tests and the admin's curiosity)."""
    return int(await _redis().zcount(_key(user_pk), time.time(), "+inf"))


class CappedSocket:
    """For a consumer: ``claim_place`` in ``connect`` before accepting (False:
    closed already, with ``CLOSE_TOO_MANY`` and the reason), ``free_place``
    first thing in ``disconnect``."""

    place_user_pk: int | None = None

    async def claim_place(self) -> bool:
        user = self.scope.get("user")  # type: ignore[attr-defined]
        if not getattr(user, "is_authenticated", False):
            return True
        channel_name: str = self.channel_name  # type: ignore[attr-defined]
        if not await claim(user.pk, channel_name):
            logger.info("A socket of user %s is refused: too many open", user.pk)
            await self.accept()  # type: ignore[attr-defined]  # to say why
            await self.close(code=CLOSE_TOO_MANY, reason=too_many_words())  # type: ignore[attr-defined]
            return False
        self.place_user_pk = user.pk
        PLACES.add(user.pk, channel_name, None)
        return True

    async def free_place(self) -> None:
        user_pk, self.place_user_pk = self.place_user_pk, None
        if user_pk is not None:
            PLACES.remove(user_pk, self.channel_name)  # type: ignore[attr-defined]
            with contextlib.suppress(Exception):
                await release(user_pk, self.channel_name)  # type: ignore[attr-defined]
