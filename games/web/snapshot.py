"""One committed version of a game, as its screen regions are rendered.

A push renders the same version for several audiences (the spectators and
each seat present), and a page renders several regions from it: the state
is parsed, and the seats and deadline rows are read, once per snapshot, and
not at all when the write that made the version announced them
(``games.services.write.Committed``). What the audiences share once worded
(the players panel, each viewer's log lines) is kept here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.models import Deadline, Game, GameEvent, Seat


@dataclass
class Snapshot:
    game: Game
    state: engine.State | None
    seats: list[Seat]
    # The event rows the write that made this version added (None: read them).
    events: list[GameEvent] | None = None
    _deadlines: list[Deadline] | None = None
    # Worded once for every audience of the version.
    log_lines: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    players: list[dict[str, Any]] | None = None
    # The version a push of this one builds on, when the write that made it
    # committed several (``Committed.since``); None: the one before.
    since: int | None = None

    @property
    def base(self) -> int:
        """The version a page must show for a push of this one to apply."""
        return self.game.version - 1 if self.since is None else self.since

    @classmethod
    def of(
        cls,
        game: Game,
        *,
        state: engine.State | None = None,
        seats: list[Seat] | None = None,
        deadlines: list[Deadline] | None = None,
        events: list[GameEvent] | None = None,
        since: int | None = None,
    ) -> Snapshot:
        """``game``'s version, with whatever of it the caller already has."""
        if state is None and game.state:
            state = engine.from_dict(game.state)
        if seats is None:
            seats = list(game.seats.select_related("user").order_by("number"))
        if deadlines is not None:
            deadlines = sorted(deadlines, key=lambda d: d.due_at)
        return cls(game, state, list(seats), events, deadlines, since=since)

    @property
    def deadlines(self) -> list[Deadline]:
        """The deadline rows, soonest first."""
        if self._deadlines is None:
            self._deadlines = list(Deadline.objects.filter(game=self.game).order_by("due_at"))
        return self._deadlines

    def seat_of(self, user: Any) -> Seat | None:
        if not getattr(user, "is_authenticated", False):
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)
