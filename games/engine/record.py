"""Game records as JSON: replay, and the check that a game's dice were fair.

A record holds the ruleset, the players, the generator and its seed or
secret, and every action. A game on the keyed generator (the site's games)
publishes the SHA-256 ``commitment`` of its secret when it starts; the record
of a running game carries the commitment and the moves but no secret, and
the record of a finished game adds the secret. ``verify_record`` then checks
that the secret matches the commitment and that every throw and card the
site showed follows from the secret and the moves.

A game that had a person seated is keyed by ``rng.dice_key`` of the secret
and the players' seeds: its record has ``seeds`` (one per player, in seat
order: "" for a person who gave none, null for a site bot's seat), null
while the game runs. A record
without ``seeds`` (a game of bots only, or one from before player seeds) is
keyed by the secret itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from hashlib import sha256
from typing import Any

from .actions import Action, action_from_dict
from .codec import to_dict
from .errors import CodecError, EngineError
from .events import Event, EventLog, as_events
from .game import as_ruleset, new_game, step
from .rng import GEN_KEYED, GEN_SPLITMIX, GENERATOR_NAMES, commitment, dice_key
from .rules import Ruleset
from .state import SCHEMA_VERSION, State

#: The event kinds that show the generator's output: what a verifier compares.
RANDOM_KINDS = ("first_roll", "dice", "card")


def make_record(
    rules: Ruleset | str | dict[str, Any],
    players: list[str],
    seed: int,
    actions: list[Action],
    *,
    secret: str | None = None,
    seeds: list[str | None] | None = None,
    reveal: bool = True,
) -> dict[str, Any]:
    """The record of a game. With ``secret`` the game is on the keyed
    generator: the record carries its commitment, and the secret itself only
    if ``reveal`` (never while the game runs). With ``seeds`` too, the game
    was keyed by ``dice_key(secret, seeds)``, and the seeds are revealed
    with the secret."""
    record: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "ruleset": as_ruleset(rules).to_dict(),
        "players": list(players),
    }
    if secret is None:
        record["generator"] = GENERATOR_NAMES[GEN_SPLITMIX]
        record["seed"] = seed
    else:
        record["generator"] = GENERATOR_NAMES[GEN_KEYED]
        record["commitment"] = commitment(secret)
        record["secret"] = secret if reveal else None
        if seeds is not None:
            record["seeds"] = list(seeds) if reveal else None
    record["actions"] = [a.to_dict() for a in actions]
    return record


def state_digest(state: dict[str, Any]) -> str:
    """SHA-256 of a state's canonical JSON (``to_dict``'s, keys sorted)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return sha256(text.encode()).hexdigest()


def random_outcomes(events: list[Event]) -> list[list[Any]]:
    """The throws and cards among ``events``, as ``[kind, player, args]``."""
    return [[e.kind, e.player, list(e.args)] for e in events if e.kind in RANDOM_KINDS]


def _read(record: dict[str, Any]) -> tuple[Any, list[str], int, str | None, list[Action]]:
    try:
        generator = record.get("generator", GENERATOR_NAMES[GEN_SPLITMIX])
        if generator == GENERATOR_NAMES[GEN_KEYED]:
            secret = record.get("secret")
            if not secret:
                raise CodecError(
                    "This record carries no secret: the game is still running, and its "
                    "secret is revealed only when it ends."
                )
            seed = 0
            secret = _key(record, str(secret))
        elif generator == GENERATOR_NAMES[GEN_SPLITMIX]:
            seed, secret = int(record["seed"]), None
        else:
            raise CodecError(f"Unknown generator {generator!r}.")
        actions = [action_from_dict(a) for a in record["actions"]]
        return record["ruleset"], list(record["players"]), seed, secret, actions
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CodecError(f"Unreadable game record: {exc}") from exc


def _seeds(record: dict[str, Any]) -> list[str | None] | None:
    """The record's player seeds, or None for a game keyed by its secret."""
    if "seeds" not in record:
        return None
    seeds = record["seeds"]
    if seeds is None:
        raise CodecError("This record carries no seeds: they are revealed when the game ends.")
    if not isinstance(seeds, list) or not all(x is None or isinstance(x, str) for x in seeds):
        raise CodecError("The seeds are a list of hex strings and nulls, one per player.")
    if len(seeds) != len(record.get("players", [])):
        raise CodecError(
            f"The record has {len(seeds)} seeds for {len(record.get('players', []))} players."
        )
    return seeds


def _key(record: dict[str, Any], secret: str) -> str:
    """The key the game's dice were drawn with."""
    seeds = _seeds(record)
    return secret if seeds is None else dice_key(secret, seeds)


def replay(record: dict[str, Any], events: list[Event] | None = None) -> State:
    """Rebuild the state by replaying every action of ``record``."""
    rules, players, seed, secret, actions = _read(record)
    log: EventLog = []
    s = new_game(rules, players, seed, events, secret=secret)
    for a in actions:
        step(s, a, log)
    if events is not None:
        events.extend(as_events(log))
    return s


@dataclass
class Verification:
    """The outcome of ``verify_record``: each check with what it found."""

    checks: list[tuple[str, bool, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(passed for _, passed, _ in self.checks)

    def add(self, name: str, passed: bool, detail: str) -> bool:
        self.checks.append((name, passed, detail))
        return passed


def verify_record(record: dict[str, Any]) -> Verification:
    """Check a finished game's record: the secret against the commitment, the
    moves against the rules, and the throws, cards and final state the site
    published (``outcomes``, ``final_state_sha256``) against the replay."""
    v = Verification()
    if record.get("generator") != GENERATOR_NAMES[GEN_KEYED]:
        v.add("generator", False, "Only games on the keyed generator can be verified.")
        return v
    secret, promised = record.get("secret"), record.get("commitment")
    if not secret:
        v.add("secret", False, "The record has no secret yet: the game is still running.")
        return v
    try:
        matches = commitment(str(secret)) == promised
    except ValueError as exc:
        v.add("commitment", False, f"The secret is malformed: {exc}")
        return v
    if not v.add(
        "commitment",
        matches,
        f"SHA-256 of the secret is {'' if matches else 'NOT '}the commitment {promised}.",
    ):
        return v
    try:
        seeds = _seeds(record)
        key = _key(record, str(secret))
    except (CodecError, ValueError) as exc:
        v.add("seeds", False, f"The seeds are malformed: {exc}")
        return v
    if seeds is None:
        v.add(
            "dice key",
            True,
            "The record has no player seeds: the dice were keyed by the secret alone "
            "(a game of bots only, or one from before player seeds).",
        )
    else:
        given = sum(bool(x) for x in seeds)
        bots = sum(x is None for x in seeds)
        v.add(
            "dice key",
            True,
            f"The dice key is HMAC-SHA256 of the secret and the seeds of the {len(seeds)} "
            f"seats ({given} gave one, {len(seeds) - given - bots} gave none, {bots} site "
            f"bots): {key}. The checks below draw every throw and card with it.",
        )
    events: list[Event] = []
    try:
        state = replay(record, events)
    except EngineError as exc:
        v.add(
            "moves",
            False,
            "The moves do not replay under the rules from this dice key (another secret or "
            f"seed gives other throws and cards, under which they are not legal): {exc}",
        )
        return v
    v.add("moves", True, f"All {len(record.get('actions', []))} moves are legal in order.")
    published = record.get("outcomes")
    if published is not None:
        mine = random_outcomes(events)
        first = next(
            (i for i, (a, b) in enumerate(zip(mine, published, strict=False)) if a != b), None
        )
        same = first is None and len(mine) == len(published)
        where = (
            ""
            if same
            else f" (first difference at outcome {first or min(len(mine), len(published))})"
        )
        v.add(
            "throws and cards",
            same,
            f"{len(mine)} throws and cards follow from the "
            f"{'secret' if seeds is None else 'dice key'} and the moves; the site showed "
            f"{len(published)}{'' if same else ' that differ'}{where}.",
        )
    final = record.get("final_state_sha256")
    if final is not None:
        digest = state_digest(to_dict(state))
        v.add(
            "final state",
            digest == final,
            "The replay ends in the final state the site stored."
            if digest == final
            else f"The replay ends in another state ({digest}) than the site stored ({final}).",
        )
    v.add(
        "finished",
        state.finished,
        "The game ends with these moves." if state.finished else "The game is not over.",
    )
    return v


def replay_file(path: str) -> str:
    """Replay a record file and return the final state as JSON text."""
    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    return json.dumps(to_dict(replay(record)), sort_keys=True)
