"""The lines of a person's events stream (``GET /api/v1/stream/events``),
read from the database (synchronous).

- ``{"type": "your_move", "game": id, "version": N, "deadline": iso|null,
  "decisions": [...]}``: a decision of yours holds the game up at version N;
- ``{"type": "game_start", "game": id, "version": N}`` (with
  ``"tournament": {"id", "name", "round", "table"}`` for a tournament's game) and
  ``{"type": "game_end", "game": id, "version": N, "status": ...}``;
- ``{"type": "challenge", "id": ..., "game": id, "challenger": ..., ...}``:
  someone challenges you to their game (``api.challenges``); accept or
  decline it by its id. The open ones come first when the stream opens;
- ``{"type": "notice", "id": n, "kind": ..., "text": ..., "game": id|null}``:
  a notice stored for you (timeouts, takeovers, expired claims, reminders,
  answers to your challenges; "your move" notices and challenges have lines
  of their own);
- ``{"type": "message", "id": n, "from": username, "text": ..., "created_at": iso}``:
  a private message written to you (``GET /me/conversations/<username>``
  reads the conversation; reading it there marks it read);
- ``{"type": "ping"}`` keep-alives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from api import challenges
from games import engine, services
from games.models import Challenge, Deadline, Game, Seat
from games.web.lobby_rows import your_game_rows
from notifications.models import Notification
from social.models import Message
from tournaments.models import Table

ENDED = (Game.Status.FINISHED, Game.Status.ABANDONED)
# "Your move" has its own lines; the notice of it would say it twice.
QUIET_NOTICES = (Notification.Kind.YOUR_TURN,)
CHALLENGE = Notification.Kind.CHALLENGE


@dataclass
class Follower:
    """What one events stream has told: each game's status, and the version
    of the last "your move" it announced."""

    user: Any
    statuses: dict[int, str] = field(default_factory=dict)
    announced: dict[int, int] = field(default_factory=dict)
    last_notice: int = 0
    last_message: int = 0

    def opening(self) -> list[dict[str, Any]]:
        """The games waiting on the user now, waiting-on-you first (as
        ``GET /games`` orders them); remembers every game's status."""
        lines = []
        for row in your_game_rows(self.user):
            game = row["game"]
            self.statuses[game.pk] = str(game.status)
            if row["your_move"]:
                lines.append(self._your_move(game, row["seat"].number))
        incoming = services.open_challenges().filter(challenged=self.user).order_by("created_at")
        lines += [challenge_line(made) for made in incoming]
        self.last_notice = (
            Notification.objects.filter(user=self.user).order_by("-pk").values_list("pk", flat=True)
        ).first() or 0
        self.last_message = _received(self.user).values_list("pk", flat=True).first() or 0
        return lines

    def game_changed(self, game_pk: int) -> list[dict[str, Any]]:
        """What a commit of one of the user's games has to announce."""
        game = Game.objects.filter(pk=game_pk).first()
        seat = Seat.objects.filter(game_id=game_pk, user=self.user).first()
        if game is None or seat is None:
            return []
        lines: list[dict[str, Any]] = []
        status, before = str(game.status), self.statuses.get(game_pk)
        self.statuses[game_pk] = status
        if status == Game.Status.ACTIVE and before != Game.Status.ACTIVE:
            lines.append(game_start_line(game))
        if status in ENDED and before not in ENDED:
            lines.append(
                {"type": "game_end", "game": game.public_id, "version": game.version,
                 "status": status, "end_reason": game.end_reason or None}
            )  # fmt: skip
        if (
            status == Game.Status.ACTIVE
            and game.state
            and self.announced.get(game_pk) != game.version
        ):
            state = engine.from_dict(game.state)
            if any(p.player == seat.number and p.blocking for p in engine.pending_decisions(state)):
                lines.append(self._your_move(game, seat.number, state))
        return lines

    def _your_move(
        self, game: Game, number: int, state: engine.State | None = None
    ) -> dict[str, Any]:
        self.announced[game.pk] = game.version
        if state is None:
            assert game.state is not None  # waiting on a seat: the game has begun
            state = engine.from_dict(game.state)
        deadline = Deadline.objects.filter(game=game, player=number).order_by("due_at").first()
        return {
            "type": "your_move",
            "game": game.public_id,
            "version": game.version,
            "deadline": deadline.due_at.isoformat() if deadline is not None else None,
            "decisions": [
                p.to_dict() for p in engine.pending_decisions(state) if p.player == number
            ],
        }

    def new_notices(self) -> list[dict[str, Any]]:
        rows = list(
            Notification.objects.filter(user=self.user, pk__gt=self.last_notice)
            .select_related("game")
            .order_by("pk")[:100]
        )
        if rows:
            self.last_notice = rows[-1].pk
        return _challenged([note for note in rows if note.kind == CHALLENGE]) + [
            {
                "type": "notice",
                "id": note.pk,
                "kind": note.kind,
                "text": note.text,
                "game": note.game.public_id if note.game is not None else None,
                "created_at": note.created_at.isoformat(),
            }
            for note in rows
            if note.kind not in QUIET_NOTICES and note.kind != CHALLENGE
        ]

    def new_messages(self) -> list[dict[str, Any]]:
        rows = list(
            _received(self.user)
            .filter(pk__gt=self.last_message)
            .select_related("sender")
            .order_by("pk")[:100]
        )
        if rows:
            self.last_message = rows[-1].pk
        return [
            {
                "type": "message",
                "id": m.pk,
                "from": m.sender.username,
                "text": m.body,
                "created_at": m.created_at.isoformat(),
            }
            for m in rows
        ]


def game_start_line(game: Game) -> dict[str, Any]:
    """A game of yours started; a tournament's game says which event,
    round and table it is (its table links it in the transaction that
    starts it, so it is there when the start's commit is read)."""
    line: dict[str, Any] = {"type": "game_start", "game": game.public_id, "version": game.version}
    table = Table.objects.filter(game=game).select_related("round__tournament").first()
    if table is not None:
        event = table.round.tournament
        line["tournament"] = {
            "id": event.pk,
            "name": event.name,
            "round": table.round.number,
            "table": table.number,
        }
    return line


def _received(user: Any) -> QuerySet[Message]:
    """Messages written to ``user``, newest first."""
    mine = Q(conversation__low_id=user.pk) | Q(conversation__high_id=user.pk)
    return Message.objects.filter(mine).exclude(sender_id=user.pk).order_by("-pk")


def challenge_line(made: Challenge) -> dict[str, Any]:
    return {"type": "challenge", **challenges.entry(made)}


def _challenged(notes: list[Notification]) -> list[dict[str, Any]]:
    """The challenges these notices tell of that are still open, in one read."""
    if not notes:
        return []
    ids = [(note.dedupe_key or "").removeprefix(f"{CHALLENGE}:") for note in notes]
    found = services.open_challenges().filter(public_id__in=ids).in_bulk(field_name="public_id")
    return [challenge_line(found[i]) for i in ids if i in found]
