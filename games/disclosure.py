"""What of a game may leave the server, and to whom: the one whitelist.

Every channel that shows a running game's moves draws them from here: the
record (``record.json``, the API's record), the replay, the game page's
action panel, its socket pushes, and the API's reads and stream. A channel
asks with the viewer's ``Audience`` (their seat, if any, and whether the
game is over) and gets only what that viewer may see.

- **Trade terms.** An offer's terms (the ``terms`` of a ``propose_trade`` or
  ``counter_trade`` action, and of an open offer) are its proposer's and its
  recipient's only while the game runs. Once the offer is accepted its terms
  are public facts: every transfer it made is in the public log anyway. An
  offer rejected, withdrawn or cancelled stays with its two parties until
  the game ends.
- **The record.** ``RECORD_FIELDS`` are shown always; ``RECORD_AT_END``
  (whatever tells the future: the secret, an old game's seed, and what a
  verifier checks the end against) only once the game has ended, and as
  ``None`` before. A field in neither list is never shown: a new one must be
  added to one of them.
- **After the end** the record keeps every offer's terms, accepted or not.
  The record is for verification: ``verify_record`` replays every action
  under the rules, and a proposal without its terms cannot be replayed or
  checked for legality. Nothing in them can change the game any more.

Sealed bids are kept out by their stored rows' ``audience_seat`` (a bid's
action and note rows are written for its bidder only), and the live win
estimates by ``games.estimates``; the secret, seeds and generator state are
never in a view (``api.reads.public_state`` is the state's whitelist).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.models import Game, GameEvent

#: The record's fields shown while the game runs and after.
RECORD_FIELDS: tuple[str, ...] = (
    "schema_version",
    "ruleset",
    "players",
    "generator",
    "commitment",
    "actions",
    "game",
    "status",
    "outcomes",
)
#: The record's fields shown only once the game has ended (``None`` before):
#: each would tell a running game's future, or checks its end.
RECORD_AT_END: tuple[str, ...] = ("secret", "seed", "seeds", "final_state_sha256")

TERMS = "terms"
PROPOSED, ACCEPTED = "trade_proposed", "trade_accepted"


@dataclass(frozen=True)
class Audience:
    """Who is looking: ``seat`` is their seat in the game (None: no seat,
    whoever they are: logged out, a spectator, staff); ``ended``, the game
    is over (finished or abandoned)."""

    seat: int | None
    ended: bool = False

    @classmethod
    def of(cls, game: Game, seat: int | None) -> Audience:
        return cls(seat, game.has_ended)


@dataclass
class TradeBook:
    """The game's offers as its public events tell them: who proposed each,
    to whom, in which version, and which were accepted."""

    parties: dict[int, tuple[int, int]] = field(default_factory=dict)  # id: (from, to)
    proposed_in: dict[int, int] = field(default_factory=dict)  # version: id
    accepted: set[int] = field(default_factory=set)

    @classmethod
    def of_game(cls, game_pk: int) -> TradeBook:
        """Read from the game's stored events (one query)."""
        rows = GameEvent.objects.filter(
            game_id=game_pk, kind__in=(PROPOSED, ACCEPTED), audience_seat__isnull=True
        ).values_list("seq", "kind", "payload")
        return cls.of_events(rows)

    @classmethod
    def of_events(cls, rows: Iterable[tuple[int, str, dict[str, Any]]]) -> TradeBook:
        """From (version, kind, payload) of public event rows."""
        book = cls()
        for seq, kind, payload in rows:
            try:
                trade_id = int(payload["trade"])
                if kind == PROPOSED:
                    book.parties[trade_id] = (int(payload["player"]), int(payload["to"]))
                    book.proposed_in[seq] = trade_id
                elif kind == ACCEPTED:
                    book.accepted.add(trade_id)
            except (KeyError, TypeError, ValueError):
                continue
        return book

    def terms_shown(self, version: int, audience: Audience) -> bool:
        """Whether the terms proposed in ``version`` may be shown to ``audience``."""
        if audience.ended:
            return True
        trade_id = self.proposed_in.get(version)
        if trade_id is None:
            return False  # an offer we cannot place is nobody's to read
        return trade_id in self.accepted or audience.seat in self.parties[trade_id]


def terms_visible(audience: Audience, proposer: int, recipient: int) -> bool:
    """Whether an open offer's terms may be shown to ``audience``."""
    return audience.ended or audience.seat in (proposer, recipient)


def offers(s: engine.State, audience: Audience) -> list[engine.Offer]:
    """The open offers whose terms ``audience`` may read."""
    return [o for o in engine.offers(s) if terms_visible(audience, o.proposer, o.recipient)]


def action(
    payload: dict[str, Any], version: int, audience: Audience, book: TradeBook
) -> dict[str, Any]:
    """A stored action as ``audience`` may read it: a copy, without the
    trade terms they may not see."""
    shown = dict(payload)
    if TERMS in shown and not book.terms_shown(version, audience):
        shown.pop(TERMS)
    return shown


def record(
    full: dict[str, Any], versions: list[int], audience: Audience, book: TradeBook
) -> dict[str, Any]:
    """The record ``full`` (every field, every action's terms) as
    ``audience`` may read it; ``versions`` are its actions' versions."""
    shown = {name: full[name] for name in RECORD_FIELDS if name in full}
    for name in RECORD_AT_END:
        if name in full:
            shown[name] = full[name] if audience.ended else None
    shown["actions"] = [
        action(a, v, audience, book) for a, v in zip(full["actions"], versions, strict=True)
    ]
    return shown
