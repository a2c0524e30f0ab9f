"""Push the regions of the play page, the lobby and the watch list to the
sockets listening for them. Sent on commit only (``live.pushes``); a
watched game's first batch may be rendered just before, while the move
commits ("rendering ahead of the commit" below), but waits for it.

Per game version the public regions (``status``, ``board``) are rendered
once and sent to the spectators (with their view of ``pending``, ``players``
and ``log``) and to the players; each seat's own view, with its action panel
and incoming offers, is rendered once for that seat's group. So a spectator
never receives seat-private content and a player never another seat's panel.
The game group itself carries presence, and chat once the game is over.

These audiences' pushes go through ``live.fanout`` (straight to this
process's sockets, Redis pub/sub to the others); the lobby, watch list,
"Your games" and waiting-page pushes through the channel layer. A push
carries the log as only the lines its version added, and the board as its
live layer (the printed board comes with the page).

Every game push is framed as ``<!--push N-->`` (``<!--snapshot N-->`` on
connect or resync; ``<!--push N after B-->`` for a move that committed the
versions after B at once, ``regions.push_frame``) so that the client can drop
stale versions and notice a gap; chat, presence and lobby pushes are framed
``<!--live-->``, and a waiting page is told ``<!--reload-->``.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.template.loader import render_to_string

from common import memo
from common.memo import Memo
from games.models import Game
from games.services.write import Committed
from games.web import presenters
from games.web.answer import answer_html, awaited
from games.web.regions import (
    AUDIENCE_REGIONS,
    NO_CSRF,
    PUBLIC_REGIONS,
    SEAT_REGIONS,
    SPECTATOR_REGIONS,
    push_frame,
    region_context,
    render,
    render_actions,
    render_push,
    shared_context,
    spectator_context,
)
from games.web.snapshot import Snapshot
from live import groups, missed_pushes, presence

logger = logging.getLogger(__name__)

FANOUT_WAIT = 0.1  # seconds; at most this long for this process's sockets
UNREAD: Any = object()  # who listens is not known yet: read it


def _game_message(part: str, version: int, html: str) -> dict[str, Any]:
    return {"type": "game.push", "part": part, "version": version, "html": html}


def current_version(game_pk: int) -> int | None:
    """The game's version (one indexed read, for a page's heartbeat)."""
    return Game.objects.filter(pk=game_pk).values_list("version", flat=True).first()


def snapshot(
    game_pk: int, seat_number: int | None, user: Any, *, win_bar: bool = False
) -> tuple[int, str]:
    """Every region as this listener sees it, with the chat it may read;
    with ``win_bar`` (a spectator's page, never a seat's) the SPECTATOR regions."""
    from live.chat import chat_context

    game = Game.objects.get(pk=game_pk)
    snap = Snapshot.of(game)
    seat = next((s for s in snap.seats if s.number == seat_number), None)
    shared = {**shared_context(snap), **NO_CSRF}
    context = region_context(snap, seat, shared=shared)
    names = PUBLIC_REGIONS + (SEAT_REGIONS if seat is not None else AUDIENCE_REGIONS)
    html = render(names, context)
    if win_bar and seat is None and snap.seat_of(user) is None:
        spectator = {**shared, **spectator_context(snap)}
        if spectator["win_bar"] is not None:
            html += render(SPECTATOR_REGIONS, spectator)
    html += render_to_string("live/chat.html", {**chat_context(game, seat, user), **NO_CSRF})
    return game.version, f"<!--snapshot {game.version}-->{html}"


def game_pushes(
    record: Committed, here: Any = UNREAD
) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """The public regions are rendered once; spectators get them in one
    message with their view of the rest, players with their seat's view in
    a second. Audiences with no socket open (by presence, ``here``; None if
    Redis cannot say) are not rendered: a socket registers its presence
    before it subscribes and takes its snapshot, so one that arrives later
    finds this version in the snapshot."""

    game = record.game
    snap = _snapshot(record)
    version = game.version
    frame = push_frame(snap)
    ahead = _sent_ahead(record)
    if ahead is None:
        here = record.scratch["here"] = _listening(game, here)
        watched = here is None or here.spectated
        shared, public, spectators = _first_renders(snap, spectators=watched)
        # Two batches, so that the largest audience is sent to before the
        # per-seat renders begin.
        yield _first_batch(snap, (shared, public, spectators))
    else:
        # Rendered and sent by the render ahead, straight after the commit
        # and without asking who is still there (a socket that left
        # meanwhile costs nothing to send to); presence is read for the seats.
        shared, public, _ = ahead
        yield []
        here = record.scratch["here"] = _listening(game, here)
    seats = []
    answer = awaited(game.public_id)
    for seat in snap.seats:
        if seat.user_id is None:
            continue
        online = here is None or seat.number in here.online_seats
        mine = answer is not None and answer.user_id == seat.user_id  # not None here
        if not (online or mine):
            continue
        context = region_context(snap, seat, shared=shared)
        # The seat's socket and, when this seat made the move, its answer
        # carry the same rendering of these regions.
        regions = render_push(AUDIENCE_REGIONS, context)
        panel = None
        if online:
            panel = render_actions(context)
            seats.append(
                (
                    groups.seat_group(game.pk, seat.number),
                    _game_message("audience", version, frame + regions + panel),
                )
            )
        if mine:
            assert answer is not None
            answer.html = answer_html(
                snap,
                seat,
                shared=shared,
                public=public,
                context=context,
                regions=regions,
                pushed_panel=panel,
            )
    if game.status == Game.Status.FINISHED:
        seats += _chat_unveiled(game)
    yield seats


def _first_batch(snap: Snapshot, renders: FirstRenders) -> list[tuple[str, dict[str, Any]]]:
    _, public, spectators = renders
    game = snap.game
    frame = push_frame(snap)
    batch = []
    if spectators is not None:
        message = _game_message("public", game.version, frame + public + spectators)
        batch.append((groups.spectators_group(game.pk), message))
    batch.append(
        (groups.players_group(game.pk), _game_message("public", game.version, frame + public))
    )
    return batch


def _listening(game: Game, here: Any) -> Any:
    """Who listens (``live.presence.Summary``, None if Redis cannot say): as
    the subscriber read it, else read now."""
    if here is UNREAD:
        here = presence.listening(game.pk)
    WATCHED.put(game.pk, here is None or here.spectated, version=game.version)
    return here


def _snapshot(record: Committed) -> Snapshot:
    """The version every audience renders from: its rows read once, and not
    at all those the write announced."""
    snap = record.scratch.get("snapshot")
    if not isinstance(snap, Snapshot):
        snap = record.scratch["snapshot"] = Snapshot.of(
            record.game,
            state=record.state,
            seats=record.seats,
            deadlines=record.deadlines,
            events=record.events or None,
            since=record.since,
        )
    return snap


FirstRenders = tuple[dict[str, Any], str, str | None]


def _first_renders(snap: Snapshot, *, spectators: bool) -> FirstRenders:
    """What the first batch carries: the shared context (the seats' renders
    start from it), the public regions and, if asked, the spectators' view
    of the rest."""

    shared = {**shared_context(snap), **NO_CSRF}
    public = render(PUBLIC_REGIONS, shared)
    if not spectators:
        return shared, public, None
    # At the end a spectator's idle action card changes too ("the game is over").
    finished = snap.game.status == Game.Status.FINISHED
    names = AUDIENCE_REGIONS + (("actions",) if finished else ())
    return shared, public, render_push(names, region_context(snap, None, shared=shared))


# --- rendering ahead of the commit ----------------------------------------------
#
# A player's move spends about a millisecond in COMMIT (a round trip and the
# write-ahead log's flush) and half a millisecond reading who listens, both
# waiting on another process, and only then rendered what the spectators are
# sent (two milliseconds of Python). For a game that had spectators at its
# last push, the first batch is rendered in a thread of its own from just
# before the commit, so the render runs while the move's thread waits for
# COMMIT; once committed, the batch goes out without asking who listens
# (sending to a group nobody is in any more costs nothing), and presence is
# read after it, for the seats. Nothing is sent before the commit, as ever.
# The render may not touch the database (it would read what was there
# before this transaction): if it tries, or fails in any way, the broadcast
# renders after the commit as before.

AHEAD_WAIT = 1.0  # seconds; a render ahead slower than this is not waited for
# Per game, whether spectators watched its last push from this process.
WATCHED: Memo[bool] = Memo("watched", 4096)
_ahead_pool: ThreadPoolExecutor | None = None
_ahead_pool_lock = threading.Lock()


class NeedsDatabase(Exception):
    """A render ahead of the commit tried to read the database."""


@dataclass
class _Ahead:
    """A render ahead under way: ``committed`` is set by the broadcast once
    the version has committed, ``abandoned`` if it stopped waiting for it."""

    version: int
    future: Future[FirstRenders | None]
    committed: threading.Event = field(default_factory=threading.Event)
    abandoned: threading.Event = field(default_factory=threading.Event)


def render_ahead(record: Committed) -> None:
    """Start rendering the first batch of the record's version (written, not
    yet committed) in the background, if spectators watched its last push
    from this process. Called by the write inside its transaction."""
    game = record.game
    if not WATCHED.get(game.pk):
        return
    snap = _snapshot(record)
    committed, abandoned = threading.Event(), threading.Event()
    future = _pool().submit(_render_ahead, snap, committed, abandoned)
    record.scratch["ahead"] = _Ahead(record.version, future, committed, abandoned)


def _pool() -> ThreadPoolExecutor:
    global _ahead_pool
    with _ahead_pool_lock:
        if _ahead_pool is None:
            _ahead_pool = ThreadPoolExecutor(4, thread_name_prefix="render-ahead")
        return _ahead_pool


def _refuse_queries(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    raise NeedsDatabase(sql)


def _render_ahead(
    snap: Snapshot, committed: threading.Event, abandoned: threading.Event
) -> FirstRenders | None:
    """Render the first batch; once the version has committed, send it and
    return what was rendered (None: not sent, the broadcast does it). The
    batch is sent from here so that it goes out the moment both the render
    and the commit are done, without a further hand-over between threads."""
    try:
        with connection.execute_wrapper(_refuse_queries), memo.held() as held:
            renders = _first_renders(snap, spectators=True)
    finally:
        # A refused query has connected this thread first: give the
        # connection back (to the pool, where there is one) rather than keep it.
        connection.close()
    # Never sent before the commit: a move rolled back never sets this.
    if not committed.wait(AHEAD_WAIT) or abandoned.is_set():
        return None
    memo.keep(held)
    done = groups.send(_first_batch(snap, renders))
    if done is not None:
        done.wait(FANOUT_WAIT)  # as ``push_committed`` does
    return renders


def rendering_ahead(record: Committed) -> bool:
    """Whether the record's first batch is being rendered ahead: its
    broadcast then goes out without first asking who listens."""
    ahead = record.scratch.get("ahead")
    return isinstance(ahead, _Ahead) and ahead.version == record.version


def _sent_ahead(record: Committed) -> FirstRenders | None:
    """What the render ahead of this version rendered and sent, now that it
    has committed; None if there was none, or it failed or gave up."""
    ahead = record.scratch.pop("ahead", None)
    if not isinstance(ahead, _Ahead) or ahead.version != record.game.version:
        return None
    ahead.committed.set()
    try:
        return ahead.future.result(timeout=AHEAD_WAIT)
    except Exception:
        ahead.abandoned.set()
        logger.debug("rendering game %s ahead of its commit failed", record.game_id, exc_info=True)
        return None


def _chat_unveiled(game: Game) -> list[tuple[str, dict[str, Any]]]:
    """At the end the players may read the spectators' room: send them the
    chat pane with both rooms (alike for every seat, so rendered once, with
    every line; ``chat_pane`` has a socket whose viewer hides some lines
    render its own, ``live.consumers``)."""
    from live.chat import chat_context
    from live.chatview import EVERYONE

    seat = game.seats.select_related("user").filter(user__isnull=False).first()
    if seat is None or not game.is_public:
        return []
    context = chat_context(game, seat, seat.user, view=EVERYONE)
    html = render_to_string("live/chat.html", {**context, **NO_CSRF})
    return [(groups.players_group(game.pk), {**groups.live_message(html), "chat_pane": True})]


def lobby_html() -> str:
    from games.web.lobby_rows import open_game_rows

    return render_to_string(
        "games/lobby.html#open_games", {"open_games": open_game_rows(), **NO_CSRF}
    )


def watch_html(user: Any = None, key: str = "") -> str:
    """The watch list as ``user`` may see it (no win bar of their own games).
    Rendered once per ``key`` (a push) for all who may see the same."""
    from live.watch import hidden_win_bars, hide_win_bars, watch_rows

    latest = WATCH_LIST.get(key) if key else None
    if latest is None:
        # Pushes carry the default order (recent activity); a reload re-sorts.
        latest = (watch_rows(), {})
        if key:
            WATCH_LIST.put(key, latest)
    rows, renders = latest
    hidden = hidden_win_bars(rows, user)
    html = renders.get(hidden)
    if html is None:
        context = {"rows": hide_win_bars(rows, hidden), **NO_CSRF}
        html = renders[hidden] = render_to_string("games/watch.html#watch_games", context)
    return html


# The latest watch-list push: its rows, and their renders per set of games
# whose win bars are hidden (most viewers: none), shared by this process's sockets.
WATCH_LIST: Memo[tuple[list[dict[str, Any]], dict[frozenset[int], str]]] = Memo("watch", 1)


def watch_refresh() -> dict[str, Any]:
    """The watch list changed: each socket renders it for its viewer (a
    player must not get the win bar of their own game)."""
    return {"type": "watch.refresh", "key": uuid.uuid4().hex}


def your_games_html(user: Any) -> str:
    from games.web.lobby_rows import your_games_context

    return render_to_string("games/lobby.html#your_games", {**your_games_context(user), **NO_CSRF})


# Per game, what its players' "Your games" rows last showed (status and who
# must move), as this process last pushed it: most moves change neither.
YOUR_GAMES_SHOWN: Memo[tuple[str, tuple[int, ...]]] = Memo("your_games", 4096)


def your_games_pushes(game: Game, snap: Snapshot | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Each seated person's "Your games" list, when this game's row in it
    changed: its status, or whose move it is (the deadline with it)."""
    from games import engine

    waiting: tuple[int, ...] = ()
    state = None
    if game.status == Game.Status.ACTIVE:
        state = snap.state if snap is not None else presenters.load_state(game)
    if state is not None:
        waiting = tuple(sorted({d.player for d in engine.pending_decisions(state) if d.blocking}))
    shown = (str(game.status), waiting)
    if YOUR_GAMES_SHOWN.get(game.pk) == shown:
        return []
    YOUR_GAMES_SHOWN.put(game.pk, shown, version=game.version)
    from live.presence import in_lobby

    seats = snap.seats if snap is not None else presenters.game_seats(game)
    people = [s.user for s in seats if s.user is not None]
    # Rendered only for those looking at the lobby; one who opens it later
    # is sent the list afresh when the socket connects.
    looking = in_lobby([user.pk for user in people])
    return [
        (groups.user_games_group(user.pk), groups.live_message(your_games_html(user)))
        for user in people
        if looking is None or user.pk in looking
    ]


RELOAD = {"type": "live.push", "html": "<!--reload-->"}


def lobby_pushes(game: Game) -> list[tuple[str, dict[str, Any]]]:
    """The open-games list changes while a game fills, and when it starts or
    is abandoned; the watch list when a game starts or ends. The game's own
    waiting page reloads on each of those changes (it differs per viewer)."""
    started = game.status == Game.Status.ACTIVE and game.version == 1
    waiting = game.status in (Game.Status.LOBBY, Game.Status.ABANDONED) or started
    out = [(groups.waiting_group(game.pk), RELOAD)] if waiting else []
    if not game.is_public:
        return out
    if game.status in (Game.Status.LOBBY, Game.Status.ABANDONED) or started:
        out.append((groups.LOBBY_GROUP, groups.live_message(lobby_html())))
    if started or game.status == Game.Status.FINISHED:
        out.append((groups.WATCH_GROUP, watch_refresh()))
    return out


def push_committed(record: Committed, here: Any = UNREAD) -> None:
    """Push what ``record`` committed to everyone listening (``here``: who
    listens, if the caller has read it). Should a newer version have
    committed meanwhile, this push is stale and clients drop it."""
    game = record.game
    snap = None
    if record.version == game.version and (record.state is not None or game.state is not None):
        snap = _snapshot(record)
        for batch in game_pushes(record, here):
            done = groups.send(batch)
            if done is not None:
                # This thread goes on to render for the seats and then the
                # actor's answer; left running, it takes the GIL from the
                # loop that is writing to the sockets of this process.
                done.wait(FANOUT_WAIT)
        missed_pushes.record(game.pk, record.version)
    groups.send(lobby_pushes(game) + your_games_pushes(game, snap))


def broadcast_game(game_id: int, version: int) -> None:
    """Push the game's ``version`` as read now (a missed push): nothing for
    the game itself if it has moved on since, which has its own push."""
    game = Game.objects.filter(pk=game_id).first()
    if game is not None:
        push_committed(Committed(game, version))
