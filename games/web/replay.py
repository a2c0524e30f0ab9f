"""Rebuilding a stored game: any step, net worth over time, landing counts.

Every position is recomputed from the stored secret (or, for games from
before the keyed generator, the seed) and actions, the same way the engine's
game records replay, so the replay cannot drift from play. The positions are
computed here, on the server: only what was already played is shown, and the
record hands out the secret only once the game has ended.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from html import escape
from typing import Any

from games import disclosure, engine
from games.engine import NUM_SQUARES, square_name, total_worth
from games.models import Game, GameEvent
from games.web.board_svg import SEAT_COLOURS, square_box

JAIL_KEY = 40  # heat-map slot for "in jail", beside the 40 squares


@dataclass
class Replay:
    game: Game
    names: list[str]
    actions: list[engine.Action]
    versions: list[int] = field(default_factory=list)  # each action's version

    @property
    def steps(self) -> int:
        return len(self.actions)

    def state_at(self, step: int) -> engine.State:
        """The position after ``step`` actions (0 is the start; the game's version is step + 1)."""
        state = self.initial_state()
        log: list[Any] = []
        for action in self.actions[:step]:
            engine.step(state, action, log)
        return state

    def position(self, step: int) -> tuple[int, engine.State]:
        """The turn number (0-based, ``State.turn_no``) before the ``step``-th
        action, and the position after it: the action's log lines before a
        ``turn_start`` belong to the former."""
        state = self.initial_state()
        before = state.turn_no
        log: list[Any] = []
        for action in self.actions[:step]:
            before = state.turn_no
            engine.step(state, action, log)
        return before, state

    @cached_property
    def turn_firsts(self) -> dict[int, int]:
        """The first step of each turn, by ``State.turn_no`` (0-based: the
        page calls turn_no 0 "turn 1", as the game page does)."""
        state = self.initial_state()
        firsts = {state.turn_no: 0}
        log: list[Any] = []
        for index, action in enumerate(self.actions, start=1):
            engine.step(state, action, log)
            firsts.setdefault(state.turn_no, index)
        return firsts

    def step_of_turn(self, turn: int) -> int:
        """The first step of turn ``turn`` as the page numbers it (1-based),
        clamped to the turns the game has."""
        firsts = self.turn_firsts
        wanted = max(min(firsts), min(turn - 1, max(firsts)))
        return firsts[max(t for t in firsts if t <= wanted)]

    def initial_state(self) -> engine.State:
        game = self.game
        return engine.new_game(self.rules, self.names, game.seed, secret=game.dice_key or None)

    @property
    def rules(self) -> engine.Ruleset:
        return engine.ruleset(self.game.preset, **self.game.switches)

    def turn_starts(self) -> tuple[list[int], list[list[int]]]:
        """(step at which each turn starts, net worth of every player at each)."""
        state = self.initial_state()
        steps, worths = [0], [[total_worth(state, p) for p in range(state.n)]]
        log: list[Any] = []
        turn_no = state.turn_no
        for index, action in enumerate(self.actions, start=1):
            engine.step(state, action, log)
            if state.turn_no != turn_no or index == len(self.actions):
                turn_no = state.turn_no
                steps.append(index)
                worths.append(
                    [total_worth(state, p) if state.alive[p] else 0 for p in range(state.n)]
                )
        return steps, worths

    def record(self, audience: disclosure.Audience | None = None) -> dict[str, Any]:
        """The game's record as ``audience`` may read it (``games.disclosure``;
        None: as someone without a seat). While the game runs it has the moves
        and the commitment but nothing that tells the future (no secret, no
        seed) and no offer's terms the viewer may not read; once it has
        ended, everything ``verify_record`` checks."""
        game = self.game
        audience = audience or disclosure.Audience.of(game, None)
        full = engine.make_record(
            self.rules,
            self.names,
            game.seed,
            self.actions,
            secret=game.secret or None,
            seeds=game.seeds,
        )
        full["game"] = game.public_id
        full["status"] = game.status
        full["outcomes"] = published_outcomes(game)
        if game.has_ended and game.state is not None:
            full["final_state_sha256"] = engine.state_digest(game.state)
        book = disclosure.TradeBook.of_game(game.pk)
        return disclosure.record(full, self.versions, audience, book)


def load_replay(game: Game) -> Replay:
    rows = GameEvent.objects.filter(game=game, kind="action").order_by("seq")
    hidden_after = _sealed_auction_start(game)
    actions, versions = [], []
    for payload, seat, seq in rows.values_list("payload", "audience_seat", "seq"):
        if hidden_after is not None and seat is not None and seq > hidden_after:
            # A sealed bid of the auction still open: the replay and the
            # record stop before it until the auction closes.
            break
        actions.append(engine.action_from_dict(payload))
        versions.append(seq)
    # Names never change after the start, so the stored state's are the start's.
    names = list((game.state or {})["names"])
    return Replay(game=game, names=names, actions=actions, versions=versions)


def _sealed_auction_start(game: Game) -> int | None:
    """The version that opened the sealed-bid auction still open, or None."""
    if game.has_ended or not game.state:
        return None
    au = engine.auction_view(engine.from_dict(game.state))
    if au is None or not au.sealed:
        return None
    started: int | None = (
        GameEvent.objects.filter(game=game, kind="auction_start")
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return started


def published_outcomes(game: Game) -> list[list[Any]]:
    """Every throw and card the site showed everyone, in order, as
    ``[kind, player, args]`` (``engine.random_outcomes``'s form)."""
    payloads = (
        GameEvent.objects.filter(
            game=game, kind__in=engine.RANDOM_KINDS, audience_seat__isnull=True
        )
        .order_by("seq", "index")
        .values_list("payload", flat=True)
    )
    return engine.random_outcomes([engine.event_from_dict(p) for p in payloads])


def landing_counts(game: Game) -> list[int]:
    """How often a move ended on each square, plus turns sent to jail (index 40)."""
    counts = [0] * (NUM_SQUARES + 1)
    for payload in GameEvent.objects.filter(game=game, kind="move").values_list(
        "payload", flat=True
    ):
        target = payload.get("to")
        if isinstance(target, int) and 0 <= target < NUM_SQUARES:
            counts[target] += 1
    counts[JAIL_KEY] = GameEvent.objects.filter(game=game, kind="jail").count()
    return counts


def heat_map_svg(counts: list[int], *, uk: bool) -> str:
    """The board's 40 squares shaded by how often a move ended there."""
    peak = max(counts[:NUM_SQUARES]) or 1
    total = sum(counts[:NUM_SQUARES]) or 1
    parts = [
        '<svg class="heat-map" viewBox="0 0 960 960" width="100%" role="img" '
        'aria-labelledby="heat-title" xmlns="http://www.w3.org/2000/svg">',
        '<title id="heat-title">Where moves ended: darker squares were landed on more often</title>',
        '<rect x="0" y="0" width="960" height="960" fill="#f4f8f1"/>',
    ]
    for sq in range(NUM_SQUARES):
        x, y, w, h, _ = square_box(sq)
        share = counts[sq] / peak
        # Light yellow to deep red, so the ramp reads without relying on hue alone.
        red, green, blue = 255, round(240 - 190 * share), round(200 - 180 * share)
        name = square_name(sq, uk)
        pct = 100 * counts[sq] / total
        parts.append(
            f'<g class="heat-sq" id="heat-{sq}"><title>{escape(name)}: {counts[sq]} landings '
            f'({pct:.1f}%)</title><rect x="{x}" y="{y}" width="{w}" height="{h}" '
            f'fill="rgb({red},{green},{blue})" stroke="#2b2b28" stroke-width="1"/>'
            f'<text x="{x + w / 2}" y="{y + h / 2 + 6}" text-anchor="middle" font-size="18" '
            f'font-weight="700" fill="#1d1d1b">{counts[sq]}</text></g>'
        )
    parts.append(
        f'<text x="480" y="470" text-anchor="middle" font-size="28" font-weight="700" '
        f'fill="#1d1d1b">Landings</text><text x="480" y="510" text-anchor="middle" '
        f'font-size="20" fill="#4a4a45">{sum(counts[:NUM_SQUARES])} moves, '
        f"{counts[JAIL_KEY]} sent to jail</text></svg>"
    )
    return "".join(parts)


def seat_colour(player: int) -> str:
    return SEAT_COLOURS[player % len(SEAT_COLOURS)]
