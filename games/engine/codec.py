"""Exact JSON round trip of a ``State`` (``to_dict`` / ``from_dict``)."""

from __future__ import annotations

from typing import Any, Final

from .actions import terms_from_dict
from .errors import CodecError
from .rules import ruleset_from_dict
from .state import LATER_LISTS, SCHEMA_VERSION, State

# Fields stored as they are (ints, bools, strings and lists of them).
_PLAIN: Final = (
    "names",
    "n",
    "seed",
    "generator",
    "secret",
    "cash",
    "pos",
    "alive",
    "in_jail",
    "jail_turns",
    "jail_cards",
    "owner",
    "mortgaged",
    "fresh",
    "bld",
    "bank_houses",
    "bank_hotels",
    "decks",
    "forced_dice",
    "turn",
    "turn_no",
    "roll_no",
    "phase",
    "doubles",
    "again",
    "dice",
    "pending_sq",
    "card_rent",
    "auction",
    "auction_queue",
    "debts",
    "claims",
    "placement",
    "next_id",
    "bank_out",
    "bank_in",
    "pot",
    "bankrupt_order",
    "ending",
    "end_reason",
    "winner",
    "values",
    "seq",
)


def _copy(v: Any) -> Any:
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


def to_dict(s: State) -> dict[str, Any]:
    d: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "rules": s.rules.to_dict()}
    for k in _PLAIN:
        d[k] = _copy(getattr(s, k))
    # The generator state is a 64-bit integer: stored as a string so that
    # JSON readers with 53-bit numbers keep it exact.
    d["rng"] = str(s.rng)
    d["trades"] = [[t[0], t[1], t[2], t[3].to_dict()] for t in s.trades]
    # Only while a sealed-bid auction is open: other states (and their
    # digests) are as before the field.
    if s.bids:
        d["bids"] = _copy(s.bids)
    d["wish"] = _copy(s.wish)
    # Only in games with a length cap in turns, as ``bids``.
    if s.played:
        d["played"] = _copy(s.played)
    for k in LATER_LISTS:
        if getattr(s, k):
            d[k] = _copy(getattr(s, k))
    return d


def from_dict(d: dict[str, Any]) -> State:
    if not isinstance(d, dict):
        raise CodecError("A game state must be a JSON object.")
    version = d.get("schema_version")
    if version == 1:
        # Before the keyed generator every game ran on splitmix64.
        d = {**d, "generator": 0, "secret": ""}
    elif version != SCHEMA_VERSION:
        raise CodecError(
            f"Unsupported state schema_version {version!r} (expected {SCHEMA_VERSION})."
        )
    s = State.__new__(State)
    try:
        s.rules = ruleset_from_dict(d["rules"])
        for k in _PLAIN:
            setattr(s, k, _copy(d[k]))
        s.rng = int(d["rng"])
        s.bids = [[int(b[0]), int(b[1])] for b in d.get("bids", [])]
        s.trades = [(int(t[0]), int(t[1]), int(t[2]), terms_from_dict(t[3])) for t in d["trades"]]
        # States stored before building shortage windows have none open.
        s.wish = _copy(d.get("wish"))
        played = d.get("played") or ([0] * s.n if s.rules.cap_turns else [])
        s.played = [int(x) for x in played]
        for k in LATER_LISTS:
            setattr(s, k, [[int(x) for x in row] for row in d.get(k, ())])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise CodecError(f"Unreadable game state: {exc}") from exc
    return s
