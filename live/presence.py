"""Who is looking at a game, counted in people rather than tabs.

Each open socket keeps one entry in a Redis sorted set per game, scored by
the time it expires. Its process's heartbeat (one for all its sockets,
``live.beats``) pushes its expiry forward; a process that died simply stops
doing so, and the next reader drops its entries. So the count heals itself
without any clean-up job.
"""

from __future__ import annotations

import enum
import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol, cast

import redis.asyncio as aioredis
from django.conf import settings
from django.core.cache import cache

from common import redis_health
from live.beats import Beat, Due

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 20
TTL_SECONDS = 3 * HEARTBEAT_SECONDS  # survives two lost heartbeats


def _redis() -> aioredis.Redis:
    return redis_health.loop_client(settings.REDIS_URL)


def _key(game_pk: int) -> str:
    return f"{settings.REDIS_PREFIX}:live:presence:{game_pk}"


def person_for(scope: dict[str, Any]) -> str:
    """One id per person: the user, or for anonymous visitors their CSRF
    cookie (shared by all tabs of one browser), hashed; failing both, the
    connection itself."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"u{user.pk}"
    cookie = (scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME, "")
    if cookie:
        return "a" + hashlib.sha256(cookie.encode()).hexdigest()[:16]
    return ""


@dataclass(frozen=True)
class Summary:
    online_seats: frozenset[int]
    watching: int
    # Sockets that only glance at the game (the home page's small boards):
    # pushes must reach them, but they are nobody watching.
    glancing: int = 0
    # Seats whose player follows the game through an API stream: at the
    # game (online, no "your move" notice), but with no page to push to.
    api_seats: frozenset[int] = frozenset()

    @property
    def present_seats(self) -> frozenset[int]:
        """The seats whose player is at the game, by page or by API stream."""
        return self.online_seats | self.api_seats

    @property
    def spectated(self) -> bool:
        """Whether any spectator's socket (watching or glancing) is open."""
        return self.watching > 0 or self.glancing > 0

    def encode(self) -> str:
        return ",".join(map(str, sorted(self.present_seats))) + f"/{self.watching}"


def member(
    person: str, seat: int | None, channel_name: str, glance: bool = False, api: bool = False
) -> str:
    """One socket's entry. ``api``: a seat's API stream (``a<seat>``), which
    counts its player present but is sent no page regions."""
    place = "g" if glance else "-" if seat is None else f"a{seat}" if api else str(seat)
    return f"{person or channel_name}|{place}|{channel_name}"


def _summarise(members: list[bytes]) -> Summary:
    seats: set[int] = set()
    api_seats: set[int] = set()
    watchers: set[str] = set()
    glancers: set[str] = set()
    for raw in members:
        person, seat, _channel = raw.decode().split("|", 2)
        if seat == "-":
            watchers.add(person)
        elif seat == "g":
            glancers.add(person)
        elif seat.startswith("a"):
            api_seats.add(int(seat[1:]))
        else:
            seats.add(int(seat))
    return Summary(frozenset(seats), len(watchers), len(glancers - watchers), frozenset(api_seats))


def _hidden_key(game_pk: int) -> str:
    """The game's sockets whose page is in the background (hidden tab,
    locked phone), scored by expiry like the game's own key."""
    return _key(game_pk) + ":hidden"


async def touch(game_pk: int, entry: str) -> Summary:
    """Add or refresh one socket's entry; return who is here now."""
    now = time.time()
    key = _key(game_pk)
    async with _redis().pipeline(transaction=False) as pipe:
        pipe.zadd(key, {entry: now + TTL_SECONDS})
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zrange(key, 0, -1)
        pipe.expire(key, TTL_SECONDS * 2)
        pipe.zadd(_hidden_key(game_pk), {entry: now + TTL_SECONDS}, xx=True)  # if hidden
        results = await pipe.execute()
    return _summarise(results[2])


# --- the heartbeat ----------------------------------------------------------------
#
# One task per process refreshes the entries of all its sockets (``live.beats``):
# per game, in one pipelined round trip for every game that is due, each
# game's entries in one ZADD. A game's sockets are told of the count only if
# it differs from what this process last saw of that game (an entry that
# expired, an API stream that came or went): a heartbeat that finds nothing
# new announces nothing, and costs no announcement script either.


class Announcer(Protocol):
    async def update_presence(self, summary: Summary) -> None:
        """Announce ``summary`` to the game's sockets if it changed."""
        ...


async def _refresh(due: Due[Announcer | None]) -> None:
    now = time.time()
    with redis_health.guarded():
        async with _redis().pipeline(transaction=False) as pipe:
            for game_pk, entries in due.items():
                key = _key(game_pk)
                scores = {entry: now + TTL_SECONDS for entry in entries}
                pipe.zadd(key, scores)
                pipe.zremrangebyscore(key, "-inf", now)
                pipe.zrange(key, 0, -1)
                pipe.expire(key, TTL_SECONDS * 2)
                pipe.zadd(_hidden_key(game_pk), scores, xx=True)  # those hidden
            results = await pipe.execute()
    for index, game_pk in enumerate(due):
        summary = _summarise(results[5 * index + 2])
        if HEARTBEAT.noted(game_pk) == summary:
            continue
        # One of the sockets still open (not one that closed meanwhile).
        here = HEARTBEAT.members(game_pk).values()
        announcer = next((a for a in here if a is not None), None)
        if announcer is None:
            continue  # only API streams here: a page's socket announces it
        try:
            await announcer.update_presence(summary)
        except Exception:
            logger.warning("presence announcement failed", exc_info=True)


HEARTBEAT: Beat[Announcer | None] = Beat("presence heartbeat", lambda: HEARTBEAT_SECONDS, _refresh)


def keep(game_pk: int, entry: str, announcer: Announcer | None) -> None:
    """Keep ``entry`` (touched already) from expiring until ``forget``; its
    game's count changes are announced by ``announcer`` (None: an API
    stream, which has no page to show it). Called on the event loop."""
    HEARTBEAT.add(game_pk, entry, announcer)


def forget(game_pk: int, entry: str) -> None:
    HEARTBEAT.remove(game_pk, entry)


def seen(game_pk: int, summary: Summary) -> None:
    """This process has checked ``summary`` against what the game's pages
    show (``announce``): a heartbeat that finds it again says nothing."""
    HEARTBEAT.note(game_pk, summary)


async def set_visible(game_pk: int, entry: str, visible: bool) -> None:
    """Whether this socket's page is in front of its reader (the page says
    on connect and on each change), for ``looking``."""
    key = _hidden_key(game_pk)
    if visible:
        await _redis().zrem(key, entry)
        return
    async with _redis().pipeline(transaction=False) as pipe:
        pipe.zadd(key, {entry: time.time() + TTL_SECONDS})
        pipe.expire(key, TTL_SECONDS * 2)
        await pipe.execute()


def looking(game_pk: int) -> frozenset[int] | None:
    """The seats whose player has the game open in front of them: a socket
    whose page is visible, or an API stream. None when Redis cannot say."""
    return looking_many([game_pk]).get(game_pk)


def looking_many(game_pks: list[int]) -> dict[int, frozenset[int]]:
    """``looking`` of several games in one round trip (beat's notice
    sweep); empty when Redis cannot say."""
    if not game_pks:
        return {}
    now = time.time()
    try:
        with redis_health.guarded(), _sync_redis().pipeline(transaction=False) as pipe:
            for pk in game_pks:
                pipe.zrangebyscore(_key(pk), now, "+inf")
                pipe.zrangebyscore(_hidden_key(pk), now, "+inf")
            results = pipe.execute()
    except redis_health.ERRORS:  # the move that asks must not fail for it
        return {}
    seats = {}
    for index, pk in enumerate(game_pks):
        here, hidden = results[2 * index], set(results[2 * index + 1])
        seats[pk] = _summarise([m for m in here if m not in hidden]).present_seats
    return seats


async def leave(game_pk: int, entry: str) -> Summary:
    now = time.time()
    key = _key(game_pk)
    async with _redis().pipeline(transaction=False) as pipe:
        pipe.zrem(key, entry)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zrange(key, 0, -1)
        pipe.zrem(_hidden_key(game_pk), entry)
        results = await pipe.execute()
    return _summarise(results[2])


async def current(game_pk: int) -> Summary:
    """Who is here now, without touching anyone's entry."""
    members = await _redis().zrangebyscore(_key(game_pk), time.time(), "+inf")
    return _summarise(cast(list[bytes], members))


# At most one presence announcement per game and this many seconds, across
# processes. Every arrival changes the count: a crowd of 1,000 sockets
# arriving together made 1,000 announcements to up to 1,000 sockets each,
# and the site was still sending them long after the last had come in.
ANNOUNCE_EVERY = 1.0  # seconds


class Announce(enum.Enum):
    NOW = "now"  # changed, and this caller announces it (it is recorded as shown)
    SAME = "same"  # what is shown already
    LATER = "later"  # changed, but announced less than ANNOUNCE_EVERY ago: ask again then


# Compare with what was last shown, then take the game's announcement slot:
# atomic, so that two processes never both announce, and one change never
# goes unannounced because another process held the slot.
_ANNOUNCE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 end
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[2]) then return 2 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1
"""
_ANSWERS = {0: Announce.SAME, 1: Announce.NOW, 2: Announce.LATER}


async def announce(game_pk: int, summary: Summary) -> Announce:
    """Whether to announce ``summary`` to the game's sockets: only a real
    change, once across all processes, and at most every ANNOUNCE_EVERY.
    A caller told LATER asks again (with the summary of then) after that."""
    shown, announced = _key(game_pk) + ":shown", _key(game_pk) + ":announced"
    slot_ms = max(1, int(ANNOUNCE_EVERY * 1000))
    answer = await _redis().eval(
        _ANNOUNCE, 2, shown, announced, summary.encode(), slot_ms, TTL_SECONDS * 2
    )
    return _ANSWERS[int(answer)]


_sync_client: Any = None


def _sync_redis() -> Any:
    global _sync_client
    import redis

    if _sync_client is None:
        _sync_client = redis.Redis.from_url(
            settings.REDIS_URL, **redis_health.client_options(asynchronous=False)
        )
    return _sync_client


def listening(game_pk: int) -> Summary | None:
    """Who has a socket open on this game, read synchronously (for the
    broadcast, which skips rendering for audiences nobody is listening to).
    None when Redis cannot say, so that the caller renders for everyone."""
    import redis

    try:
        members = redis_health.call(_sync_redis().zrangebyscore, _key(game_pk), time.time(), "+inf")
    except redis.RedisError:
        return None
    return _summarise(members)


def listening_many(game_pks: list[int]) -> dict[int, Summary]:
    """``listening`` of several games in one round trip; empty when Redis
    cannot say (callers then act as if everyone were listening)."""
    import redis

    if not game_pks:
        return {}
    now = time.time()
    try:
        with redis_health.guarded(), _sync_redis().pipeline(transaction=False) as pipe:
            for pk in game_pks:
                pipe.zrangebyscore(_key(pk), now, "+inf")
            results = pipe.execute()
    except redis.RedisError:
        return {}
    return {pk: _summarise(members) for pk, members in zip(game_pks, results, strict=True)}


def watching_counts(game_pks: list[int]) -> dict[int, int]:
    """Spectators (people, not tabs) of several games in one round trip."""
    return {pk: summary.watching for pk, summary in listening_many(game_pks).items()}


# --- the lobby ------------------------------------------------------------------
#
# How many lobby sockets each signed-in person has open, so that their "Your
# games" list is rendered and pushed only when they can see it (during a game
# the players are on the game page). A counter per person; a process that
# dies without closing its sockets leaves it too high until it expires, which
# costs renders, never a missed push.

LOBBY_TTL_SECONDS = 24 * 3600  # Daphne closes a socket after a day at most


def _lobby_key(user_pk: int) -> str:
    return f"{settings.REDIS_PREFIX}:live:lobby:{user_pk}"


async def lobby_opened(user_pk: int) -> None:
    async with _redis().pipeline(transaction=False) as pipe:
        pipe.incr(_lobby_key(user_pk))
        pipe.expire(_lobby_key(user_pk), LOBBY_TTL_SECONDS)
        await pipe.execute()


async def lobby_closed(user_pk: int) -> None:
    await _redis().decr(_lobby_key(user_pk))


def in_lobby(user_pks: list[int]) -> set[int] | None:
    """Which of these people have a lobby socket open (None when Redis
    cannot say, so that the caller pushes to everyone)."""
    import redis

    if not user_pks:
        return set()
    try:
        counts = redis_health.call(_sync_redis().mget, [_lobby_key(pk) for pk in user_pks])
    except redis.RedisError:
        return None
    return {pk for pk, count in zip(user_pks, counts, strict=True) if count and int(count) > 0}


# --- a person's open sockets ---------------------------------------------------
# Whether someone has any page with a socket open (game, lobby, watch), for
# pushes addressed to the person rather than a game (their unread count): a
# counter in the cache, raised on connect and lowered on disconnect, expiring
# on its own if a server dies without lowering it.

SOCKETS_TTL = 24 * 3600  # seconds a count of open sockets outlives its last change


def _sockets_key(user_pk: int) -> str:
    return f"live:sockets:{user_pk}"


def person_connected(user_pk: int) -> None:
    key = _sockets_key(user_pk)
    if cache.add(key, 1, SOCKETS_TTL):
        return
    try:
        cache.incr(key)
        cache.touch(key, SOCKETS_TTL)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, SOCKETS_TTL)


def person_disconnected(user_pk: int) -> None:
    key = _sockets_key(user_pk)
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # already gone (expired): nothing is open
        pass


def person_online(user_pk: int) -> bool:
    return bool(cache.get(_sockets_key(user_pk)))


def people_online(user_pks: list[int]) -> set[int]:
    """Which of these people have a page with a socket open, in one round
    trip (for the friends list). Empty when the cache cannot say."""
    if not user_pks:
        return set()
    try:
        counts = cache.get_many([_sockets_key(pk) for pk in user_pks])
    except Exception:  # a lost cache shows nobody online rather than failing the page
        return set()
    return {pk for pk in user_pks if counts.get(_sockets_key(pk))}
