"""One write's working set, and the record it announces once committed.

A write is one transaction with the game row locked. It reads the game's
seats and deadline rows at most once, with the lock, and keeps them here
current as it changes them, so that the timeout, the deadline rewrite, the
standing orders and the bot check never query them again. Its changes go
out through the ORM (``save(update_fields=...)``, ``bulk_create``, queryset
updates and deletes), as it makes them, except within a chain of versions
(a move with the standing orders and instant bots' answers it sets off):
there the game row, the events and the deadline rows are written once, when
the chain ends (``Write.write_behind``). Once it has
committed, ``announce`` hands subscribers (``games.services.subscribers``)
a ``Committed`` record of the result: the game row as written, the engine
state, the seats and deadline rows, the events it added and the notices it
owes, so that nobody reads any of it back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from common.rows import reader
from games import engine, writeguard
from games.models import Deadline, Game, GameEvent, Seat
from games.services.errors import GameNotFound
from games.services.statements import Statement, run_together


@dataclass(frozen=True)
class Notice:
    """A message for one person, sent after the commit (``notifications``)."""

    user_id: int
    kind: str
    text: str
    dedupe_key: str | None = None
    url: str = ""  # where the notice leads (the game's page if empty)
    # Asked in the notifier's own transaction, just before the notice is
    # stored (it may lock rows): False if what the notice tells of was
    # undone between this write's commit and then (a withdrawn challenge).
    still_due: Callable[[], bool] | None = None


@dataclass
class Write:
    """The locked game and the rows read with it, kept current by the write."""

    game: Game
    _seats: list[Seat] | None = None
    _deadlines: list[Deadline] | None = None
    events: list[GameEvent] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    turn_notices: bool = False  # a new decision whose owner is to be told
    finished: bool = False  # this write ended the game
    # The seat whose player made this write's move themself (None for
    # timers, standing orders and bots): probably still at the game, so the
    # first look at whether to tell them of a new decision waits a little
    # (``clocks.sync_deadlines``); presence decides.
    mover: int | None = None
    # The version the game was at when locked, or when this write last
    # announced: what its next announcement's pushes build on. A move that
    # sets off standing orders or instant bots commits several versions,
    # and is pushed once, as one step from here.
    since: int = -1
    # Write-behind (``behind``): while a move's chain of versions (its
    # standing orders, the instant bots' answers) is applied, the game row's
    # changed fields, the new events and the deadline rows are kept here and
    # written once at its end, not once a version. ``_stored`` is the
    # deadline rows' versions as the database has them (by pk).
    _behind: bool = False
    _dirty: set[str] = field(default_factory=set)
    _unsaved_events: list[GameEvent] = field(default_factory=list)
    _stored: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.since < 0:
            self.since = self.game.version

    def save_game(self, fields: Sequence[str]) -> None:
        """Save these fields of the game row (at the write-behind's end, inside one)."""
        if self._behind:
            self._dirty.update(fields)
        else:
            self.game.save(update_fields=list(fields))

    def add_events(self, rows: list[GameEvent]) -> None:
        """Store the version's event rows; they are announced with the commit."""
        self.events.extend(rows)
        if self._behind:
            self._unsaved_events.extend(rows)
        else:
            GameEvent.objects.bulk_create(rows)

    def store_deadlines(self, drop: list[int], stale: list[int], created: list[Deadline]) -> None:
        """Write a version's change of the deadline rows: ``drop`` deleted,
        ``stale`` moved to the game's version, ``created`` inserted. Inside
        a write-behind the database sees only the whole chain's change, at
        its end."""
        if self._behind:
            return
        if drop:
            Deadline.objects.filter(pk__in=drop).delete()
        if stale:
            Deadline.objects.filter(pk__in=stale).update(version=self.game.version)
        if created:
            Deadline.objects.bulk_create(created)

    @contextmanager
    def write_behind(self) -> Iterator[None]:
        """Apply a chain of versions in memory and write what it left at the
        end, in one statement a table: the intermediate game rows and
        deadline rows nobody reads are never written. Nested blocks join
        the outer one; on an error nothing is written (the transaction
        rolls back)."""
        if self._behind:
            yield
            return
        self._stored = {d.pk: d.version for d in self.deadlines}
        self._behind = True
        try:
            yield
        except BaseException:
            self._behind = False
            self._dirty, self._unsaved_events, self._stored = set(), [], {}
            raise
        self._behind = False
        self._flush()

    def _flush(self) -> None:
        if self._dirty:
            self.game.save(update_fields=sorted(self._dirty))
            self._dirty = set()
        if self._unsaved_events:
            GameEvent.objects.bulk_create(self._unsaved_events)
            self._unsaved_events = []
        rows = self.deadlines
        kept = {d.pk for d in rows if d.pk is not None}
        gone = [pk for pk in self._stored if pk not in kept]
        if gone:
            Deadline.objects.filter(pk__in=gone).delete()
        # Rows kept throughout share the game's version now.
        stale = [d.pk for d in rows if d.pk is not None and self._stored.get(d.pk) != d.version]
        if stale:
            Deadline.objects.filter(pk__in=stale).update(version=self.game.version)
        created = [d for d in rows if d.pk is None]
        if created:
            Deadline.objects.bulk_create(created)
        self._stored = {}

    @property
    def seats(self) -> list[Seat]:
        """The game's seats (with their users), in seat order."""
        if self._seats is None:
            self._seats = list(self.game.seats.select_related("user").order_by("number"))
        return self._seats

    def seat(self, number: int) -> Seat | None:
        return next((s for s in self.seats if s.number == number), None)

    @property
    def deadlines(self) -> list[Deadline]:
        """The game's deadline rows, as the write left them."""
        if self._deadlines is None:
            self._deadlines = list(self.game.deadlines.all())
        return self._deadlines

    @deadlines.setter
    def deadlines(self, rows: list[Deadline]) -> None:
        self._deadlines = rows

    def committed(self, state: engine.State | None, *, last_write: bool = False) -> Committed:
        game = self.game
        since, self.since = self.since, game.version
        return Committed(
            game=game,
            version=game.version,
            since=since,
            state=state,
            seats=self._seats,
            deadlines=[d for d in self._deadlines if d.version == game.version]
            if self._deadlines is not None
            else None,
            events=list(self.events),
            notices=list(self.notices),
            turn_notices=self.turn_notices,
            finished=self.finished,
            bots_due=game.auto_move_at is not None,
            last_write=last_write,
        )


@dataclass
class Committed:
    """What one write committed, as its subscribers are told.

    ``state``, ``seats`` and ``deadlines`` are None where the write did not
    have them at hand (a lobby change); subscribers read them then.
    ``last_write`` says that the transaction changes nothing more before it
    commits, so a subscriber may prepare its work ahead of the commit.
    ``scratch`` carries what a subscriber's ``before_commit`` hands its own
    ``on_commit`` (keyed by the subscriber's name)."""

    game: Game
    version: int
    # The version its pushes build on (None: the one before ``version``).
    since: int | None = None
    state: engine.State | None = None
    seats: list[Seat] | None = None
    deadlines: list[Deadline] | None = None
    events: list[GameEvent] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    turn_notices: bool = False
    finished: bool = False
    bots_due: bool = False
    last_write: bool = False
    scratch: dict[str, Any] = field(default_factory=dict)
    # Notices this write takes back, as (user id, dedupe key): a withdrawn
    # challenge's. Deleted after the commit, their readers' counts pushed.
    retracted: list[tuple[int, str]] = field(default_factory=list)

    @property
    def game_id(self) -> int:
        return self.game.pk


@contextmanager
def game_transaction(*, savepoint: bool = True) -> Iterator[None]:
    """The services' transaction: every service that writes a game, seat,
    event or deadline opens its block with this, which tells the write
    guard (``games.writeguard``) that these writes are the ones meant. The
    guard's mark is set around the transaction, so that the ``on_commit``
    hooks it runs as it commits are inside it too.
    ``savepoint=False``: inside a caller's transaction that rolls back as a
    whole when this block fails, no savepoint of its own (two round trips
    fewer: SAVEPOINT and RELEASE)."""
    with writeguard.services_writing(), transaction.atomic(savepoint=savepoint):
        yield


# A service write of one statement, which needs no transaction of its own
# (autocommit): the guard's mark alone, as a decorator.
one_statement = writeguard.services_writing


def lock(pk: int | None = None, *, public_id: str | None = None) -> Write:
    """Lock the game (by ``pk`` or ``public_id``) and read its deadline rows
    and seats (with their users) with it, in one round trip on PostgreSQL.
    The rows are read by statements after the lock, so they are what the
    last writer of this game committed (each statement has a snapshot of
    its own)."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("lock must be called inside game_transaction()")
    # SQLite has no row locks: its writers queue on the database (IMMEDIATE).
    rows = read_game(pk, public_id=public_id, for_update=connection.features.has_select_for_update)
    if rows is None:
        raise GameNotFound("There is no such game.")
    return Write(rows.game, rows.seats, rows.deadlines)


@dataclass
class GameRows:
    """A game row with its seats (users loaded, in seat order) and deadline
    rows, and the rows of the statements asked for with them."""

    game: Game
    seats: list[Seat]
    deadlines: list[Deadline]
    more: list[list[tuple[Any, ...]]] = field(default_factory=list)


def read_game(
    pk: int | None = None,
    *,
    public_id: str | None = None,
    for_update: bool = False,
    more: Sequence[Statement] = (),
) -> GameRows | None:
    """The game (by ``pk`` or ``public_id``), its deadline rows and seats,
    and ``more`` statements' rows, in one round trip on PostgreSQL, without
    the ORM building a query (None: no such game). Outside a transaction
    each statement still sees what was committed when it ran; ``lock`` reads
    through here with ``for_update``."""
    games, deadlines, seats = reader(Game), reader(Deadline), reader(Seat)
    users = reader(get_user_model())
    lock_rows = " FOR UPDATE" if for_update else ""
    key: int | str | None
    if pk is not None:
        where, key, game_id = f"{games.table}.id = %s", pk, "%s"
    else:
        # The rows' statements find the game's id from its public id: the
        # game's statement has already run, so it is the same game.
        where, key = f"{games.table}.public_id = %s", public_id
        game_id = f"(SELECT g.id FROM {games.table} g WHERE g.public_id = %s)"
    found, deadline_rows, seat_rows, *more_rows = run_together(
        [
            (f"SELECT {games.columns()} FROM {games.table} WHERE {where}{lock_rows}", [key]),
            (f"SELECT {deadlines.columns()} FROM {deadlines.table}"
             f" WHERE {deadlines.table}.game_id = {game_id}", [key]),
            (f"SELECT {seats.columns()}, {users.columns('u')} FROM {seats.table}"
             f" LEFT JOIN {users.table} u ON u.id = {seats.table}.user_id"
             f" WHERE {seats.table}.game_id = {game_id} ORDER BY {seats.table}.number", [key]),
            *more,
        ]
    )  # fmt: skip
    if not found:
        return None
    game: Game = games.build(found[0])
    width = len(seats.fields)
    seat_list = []
    for row in seat_rows:
        seat = seats.build(row)
        Seat.user.field.set_cached_value(
            seat, users.build(row[width:]) if seat.user_id is not None else None
        )
        Seat.game.field.set_cached_value(seat, game)
        seat_list.append(seat)
    # The host is nearly always seated: their user is then at hand too.
    host = next((s.user for s in seat_list if s.user_id == game.host_id), None)
    if host is not None:
        Game.host.field.set_cached_value(game, host)
    return GameRows(game, seat_list, [deadlines.build(r) for r in deadline_rows], more_rows)
