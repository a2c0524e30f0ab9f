"""Game state as plain dicts and strings for the play page's templates.

Nothing here writes; every function reads a ``Game`` (and its engine state)
and returns data a template can show without further logic.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from common.memo import Memo
from games import decisions, engine, wording
from games.engine import (
    D_BID,
    D_SEALED_BID,
    DECK_NAMES,
    owns_group,
)
from games.models import Game, GameEvent, Seat
from games.web import board_svg
from games.web.snapshot import Snapshot
from games.wording import AUCTION_ITEMS, money, square_name

logger = logging.getLogger(__name__)

LOG_LIMIT = 100

# The board's colour groups, then railroads and utilities.
GROUP_COLOURS = (*board_svg.GROUP_COLOURS, "#3B3B3B", "#9AA5B1")


def seat_colours() -> tuple[str, ...]:
    return board_svg.SEAT_COLOURS


seat_text_colour = board_svg.seat_text_colour


def group_name(rules: engine.Ruleset, group: int) -> str:
    return (engine.UK_GROUP_NAMES if rules.uk else engine.US_GROUP_NAMES)[group]


def load_state(game: Game) -> engine.State | None:
    return engine.from_dict(game.state) if game.state else None


def game_seats(game: Game) -> list[Seat]:
    """Every seat with its user, by number."""
    return list(game.seats.select_related("user").order_by("number"))


@dataclass(frozen=True)
class SeatView:
    """A seat as the page shows it: name, link and colour."""

    number: int
    name: str
    colour: str
    text_colour: str
    is_bot: bool
    bot_account: bool
    bot_label: str
    profile_url: str
    status: str
    status_label: str
    final_rank: int | None
    final_net_worth: int | None


def seat_views(seats: list[Seat]) -> list[SeatView]:
    colours = seat_colours()
    out = []
    for seat in seats:
        out.append(
            SeatView(
                number=seat.number,
                name=seat.name,
                colour=colours[seat.number % len(colours)],
                text_colour=seat_text_colour(seat.number),
                is_bot=seat.is_bot,
                bot_account=seat.user is not None
                and bool(getattr(seat.user, "bot_account", False)),
                bot_label=seat.get_bot_kind_display() if seat.is_bot else "",
                profile_url=f"/u/{seat.user.username}/" if seat.user is not None else "",
                status=seat.status,
                status_label=seat.get_status_display(),
                final_rank=seat.final_rank,
                final_net_worth=seat.final_net_worth,
            )
        )
    return out


def viewer_seat(game: Game, user: Any) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).first()


# --- players ------------------------------------------------------------------


def property_groups(s: engine.State, player: int) -> list[dict[str, Any]]:
    """The player's properties by colour group, in board order."""
    out = []
    for g in range(engine.NUM_GROUPS):
        owned = [sq for sq in engine.GROUP_MEMBERS[g] if s.owner[sq] == player]
        if not owned:
            continue
        props = []
        for sq in owned:
            b = s.bld[sq]
            props.append(
                {
                    "square": sq,
                    "name": square_name(s.rules, sq),
                    "mortgaged": s.mortgaged[sq],
                    "houses": b if b != engine.HOTEL else 0,
                    "house_marks": "■" * b if b != engine.HOTEL else "",
                    "hotel": b == engine.HOTEL,
                }
            )
        out.append(
            {
                "group": g,
                "name": group_name(s.rules, g),
                "colour": GROUP_COLOURS[g],
                "complete": owns_group(s, player, g),
                "size": len(engine.GROUP_MEMBERS[g]),
                "properties": props,
            }
        )
    return out


def players(snap: Snapshot, viewer: int | None) -> list[dict[str, Any]]:
    # Alike for every viewer but for ``is_viewer``: worked out once per snapshot.
    if snap.players is None:
        snap.players = _players(snap)
    return [{**p, "is_viewer": p["number"] == viewer} for p in snap.players]


def _players(snap: Snapshot) -> list[dict[str, Any]]:
    s = snap.state
    assert s is not None
    rules = s.rules
    finished = s.finished
    out = []
    for seat in seat_views(snap.seats):
        p = seat.number
        if p >= s.n:
            continue
        cards = s.jail_cards[p]
        jail_cards = [f"{DECK_NAMES[deck]}" for deck in (0, 1) for _ in range(cards[deck])]
        out.append(
            {
                "seat": seat,
                "number": p,
                "cash": money(rules, s.cash[p]),
                "cash_value": s.cash[p],
                "is_turn": not finished and s.alive[p] and p == s.turn,
                "in_jail": s.alive[p] and s.in_jail[p],
                "alive": s.alive[p],
                "out_label": _out_label(seat, s, p),
                "square": square_name(rules, s.pos[p]),
                "jail_cards": jail_cards,
                "groups": property_groups(s, p),
                "final_rank": seat.final_rank if finished else None,
                "final_net_worth": (
                    money(rules, seat.final_net_worth)
                    if finished and seat.final_net_worth is not None
                    else ""
                ),
            }
        )
    return out


def _out_label(seat: SeatView, s: engine.State, p: int) -> str:
    if seat.status == Seat.Status.RESIGNED:
        return "Resigned"
    if not s.alive[p]:
        return "Bankrupt"
    return ""


def _out_word(seat: SeatView, s: engine.State) -> str:
    """How a seat left a finished game, for its place in the final ranking
    (the engine counts a resignation as a bankruptcy to the Bank)."""
    if seat.status == Seat.Status.RESIGNED:
        return gettext("resigned")
    if not s.alive[seat.number]:
        return gettext("bankrupt")
    return ""


def ranking(snap: Snapshot) -> list[dict[str, Any]]:
    """Final places, best first (empty until the game is over)."""
    s, game = snap.state, snap.game
    if s is None or not s.finished:
        return []
    rows = [seat for seat in seat_views(snap.seats) if seat.final_rank is not None]
    rows.sort(key=lambda seat: seat.final_rank or 0)
    by_seat = {seat.number: seat.user_id for seat in snap.seats if seat.user_id is not None}
    # Declared by ratings (which sits above games): read through its relation.
    deltas = {change.user_id: change for change in game.rating_changes.all()}
    return [
        {
            "rank": seat.final_rank,
            "seat": seat,
            "net_worth": money(s.rules, seat.final_net_worth or 0),
            "out": _out_word(seat, s),
            "rating": deltas.get(by_seat.get(seat.number, -1)),
        }
        for seat in rows
    ]


def end_line(s: engine.State) -> str:
    """Why a finished game ended, for the game-over panel."""
    if s.end_reason == engine.END_TURN_LIMIT:
        return gettext(
            "The game ended at the turn limit after %(turns)s turns, as games with no person "
            "seated do: the highest net worth wins."
        ) % {"turns": s.turn_no}
    if s.end_reason == engine.END_TIME:
        return gettext("Time ran out: the highest net worth wins.")
    if s.end_reason == engine.END_LENGTH_CAP:
        return _length_cap_line(s)
    if s.end_reason == engine.END_FIRST_BANKRUPTCY:
        return gettext("The game ended at the first bankruptcy: the highest net worth wins.")
    if s.end_reason == engine.END_SECOND_BANKRUPTCY:
        return gettext("The game ended at the second bankruptcy: the highest net worth wins.")
    if s.end_reason == engine.END_LAST_PLAYER:
        return gettext("Everyone else went bankrupt or resigned.")
    return ""


def _length_cap_line(s: engine.State) -> str:
    rounds = max((s.played[p] for p in range(s.n) if s.alive[p]), default=0) if s.played else 0
    if s.rules.cap_turns and rounds >= s.rules.cap_turns:
        return ngettext(
            "The game reached its length cap: each player had %(n)s turn. "
            "The highest net worth wins.",
            "The game reached its length cap: each player had %(n)s turns. "
            "The highest net worth wins.",
            rounds,
        ) % {"n": rounds}
    days = s.rules.cap_days
    return ngettext(
        "The game reached its length cap of %(n)s day. The highest net worth wins.",
        "The game reached its length cap of %(n)s days. The highest net worth wins.",
        days,
    ) % {"n": days}


# --- pending decisions --------------------------------------------------------


def pending(s: engine.State, viewer: int | None) -> list[dict[str, Any]]:
    """Who must decide what now, one plain sentence each.

    Bidders in one auction share one line; every line says whose move it is
    so the viewer's own lines can be marked."""
    out: list[dict[str, Any]] = []
    bidders: list[int] = []
    for d in engine.pending_decisions(s):
        if d.kind in (D_BID, D_SEALED_BID):
            bidders.append(d.player)
            continue
        out.append(
            {
                "players": [d.player],
                "text": decisions.describe(s, d),
                "blocking": d.blocking,
                "mine": d.player == viewer,
            }
        )
    au = engine.auction_view(s)
    if au is not None and au.sealed:
        # Who has still to bid, never an amount; the viewer's own bid only.
        own = engine.sealed_bid(s, viewer) if viewer is not None else None
        out.insert(
            0,
            {
                "players": bidders,
                "text": _sealed_auction_text(s, au, bidders, own),
                "blocking": True,
                "mine": viewer in bidders,
            },
        )
    elif bidders and au is not None:
        out.insert(
            0,
            {
                "players": bidders,
                "text": _auction_text(s, bidders),
                "blocking": True,
                "mine": viewer in bidders,
            },
        )
    return out


def _sealed_auction_text(
    s: engine.State, au: engine.AuctionView, bidders: list[int], own: int | None
) -> str:
    if au.kind == engine.A_PROPERTY:
        what = square_name(s.rules, au.square)
    else:
        what = f"a {AUCTION_ITEMS[au.kind]}"
    waiting = f"waiting for {_join([s.names[p] for p in bidders])}" if bidders else "closing"
    text = f"Sealed-bid auction for {what}: {waiting}; bids stay hidden until all are in."
    if own is not None:
        mine = money(s.rules, own) if own > 0 else "a pass"
        text += f" Your sealed bid: {mine}."
    return text


def _auction_text(s: engine.State, bidders: list[int]) -> str:
    au = engine.auction_view(s)
    assert au is not None
    if au.kind == engine.A_PROPERTY:
        what = square_name(s.rules, au.square)
    else:
        what = f"a {AUCTION_ITEMS[au.kind]}"
    who = _join([s.names[p] for p in bidders])
    verb = "may bid" if len(bidders) > 1 else "may bid or pass"
    if au.high_bidder >= 0:
        bid = f"high bid {money(s.rules, au.high_bid)} by {s.names[au.high_bidder]}"
    else:
        bid = "no bids yet"
    return f"Auction for {what}: {who} {verb}; {bid}."


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def turn_line(s: engine.State) -> str:
    if s.finished:
        return wording.game_over(s.end_reason, s.names[s.winner] if s.winner >= 0 else None)
    return f"Turn {s.turn_no + 1}: {s.names[s.turn]} to play."


# --- log ------------------------------------------------------------------------


# The worded log of recent games, per (game pk, viewer): the newest
# ``LOG_LIMIT`` lines, kept with the version through which they are complete.
# Events are never updated or deleted and each version's events are written
# with it, so a later version only needs its own new events read and worded
# (one small query instead of reloading and re-wording a hundred), or none
# when the write that made it passes them on. Under ``common.memo``'s rule,
# only lines read from committed rows are kept; a process that has not seen
# the game reads it all.
# Three viewers a two-person game (the audience and each seat), a hundred
# lines each (about 31 kB, measured with tracemalloc): 1,536 entries, about
# 48 MB, hold 512 busy games' logs. At 512
# entries, 200 games in make bench-load kept evicting each other, and reading
# and wording whole logs again took a fifth of each Daphne's request time.
LOG_LINES: Memo[tuple[int, list[dict[str, Any]]]] = Memo("log", 1536)
# ``action`` and ``start`` rows record what was asked, not what happened.
UNLOGGED_KINDS = ("action", "start")


def log(snap: Snapshot, viewer: int | None, limit: int = LOG_LIMIT) -> list[dict[str, Any]]:
    """The newest ``limit`` readable events, grouped by turn, newest first.

    Private events are shown only to their seat. ``action`` and ``start``
    rows record what was asked, not what happened, and are left out."""
    return _group(log_lines(snap, viewer, limit))


def log_delta(snap: Snapshot, viewer: int | None) -> dict[str, Any] | None:
    """What the versions after ``snap.base`` (the one before ``game.version``,
    or where the write that made it began) added to the viewer's log, for a
    page that shows that version: ``into`` (the lines of the turn at the top
    of that page, which they go on top of) and ``turns`` (newer turns),
    newest first; ``since``, the version it builds on. None when the page's
    log had nothing to add to (send the whole log)."""
    game = snap.game
    lines = log_lines(snap, viewer)
    new = [line for line in lines if line["seq"] > snap.base]
    older = lines[: len(lines) - len(new)]
    if not older or any(line["seq"] > game.version for line in lines):
        return None
    top = older[-1]["turn"]
    into = [line for line in new if line["turn"] == top]
    return {
        "top": top,
        "into": into[::-1],
        "turns": _group(new[len(into) :]),
        "limit": LOG_LIMIT,
        "since": snap.base,
    }


def _group(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    for line in reversed(lines):
        turn = line["turn"]
        if not groups or groups[-1]["turn"] != turn:
            label = f"Turn {turn + 1}" if turn >= 0 else "Setting up"
            groups.append({"turn": turn, "label": label, "lines": []})
        groups[-1]["lines"].append(line)
    return groups


def log_lines(snap: Snapshot, viewer: int | None, limit: int = LOG_LIMIT) -> list[dict[str, Any]]:
    """The newest ``limit`` readable events, worded, oldest first."""
    if limit != LOG_LIMIT:
        return _read_log_lines(snap, viewer, limit)
    if viewer not in snap.log_lines:
        snap.log_lines[viewer] = _read_log_lines(snap, viewer, limit)
    return snap.log_lines[viewer]


def _read_log_lines(snap: Snapshot, viewer: int | None, limit: int) -> list[dict[str, Any]]:
    game, s = snap.game, snap.state
    assert s is not None
    key = (game.pk, viewer)
    cacheable = limit == LOG_LIMIT
    cached = LOG_LINES.get(key) if cacheable else None
    if cached is not None:
        through, known = cached
        rows = _written_after(snap, through, viewer)
        if rows is None:
            query, audience = _log_query(game, viewer)
            rows = list(query.filter(audience, seq__gt=through).order_by("seq", "index"))
        lines = known + _log_lines(rows, s, known[-1]["turn"])
    else:
        query, audience = _log_query(game, viewer)
        rows = list(query.filter(audience).order_by("-seq", "-index")[:limit])
        rows.reverse()
        if not rows:
            return []
        # The turn in progress when the window opens.
        opening = (
            query.filter(kind="turn_start", seq__lt=rows[0].seq).order_by("-seq", "-index").first()
        )
        lines = _log_lines(rows, s, _turn_of(opening.payload) if opening else -1)
    lines = lines[-limit:]
    if cacheable and lines:
        through = max(game.version, lines[-1]["seq"])
        LOG_LINES.put(key, (through, lines), version=through)
    return lines


def _log_query(game: Game, viewer: int | None) -> tuple[Any, Q]:
    """The game's logged events, and which of them ``viewer`` may read. Built
    only when they are read: building the query costs about half a
    millisecond, more than the rest of a push's log when the write passed it on."""
    query = GameEvent.objects.filter(game=game).exclude(kind__in=UNLOGGED_KINDS)
    audience = Q(audience_seat__isnull=True)
    if viewer is not None:
        audience |= Q(audience_seat=viewer)
    return query, audience


def _written_after(snap: Snapshot, through: int, viewer: int | None) -> list[GameEvent] | None:
    """The viewer's events after version ``through`` as the write that made
    the snapshot's version announced them, when it wrote every version
    since; else None (read them). Their payloads go through JSON as the
    stored ones did."""
    game, written = snap.game, snap.events
    if not written or written[0].seq > through + 1 or written[-1].seq != game.version:
        return None
    return [
        GameEvent(
            seq=row.seq,
            index=row.index,
            kind=row.kind,
            payload=json.loads(json.dumps(row.payload)),
            audience_seat=row.audience_seat,
        )
        for row in written
        if row.seq > through
        and row.kind not in UNLOGGED_KINDS
        and (row.audience_seat is None or row.audience_seat == viewer)
    ]


def _log_lines(rows: list[GameEvent], s: engine.State, turn: int) -> list[dict[str, Any]]:
    """Word ``rows`` (oldest first), each with the turn it belongs to."""
    out = []
    for row in rows:
        if row.kind == "turn_start":
            turn = _turn_of(row.payload)
        text = event_text(row.kind, row.payload, s.rules, s.names)
        out.append(
            {
                "text": text,
                "kind": row.kind,
                "seq": row.seq,
                "private": row.audience_seat is not None,
                "turn": turn,
            }
        )
    return out


def event_text(kind: str, payload: dict[str, Any], rules: engine.Ruleset, names: list[str]) -> str:
    """One stored event as a log line. A note (why the server acted: a timer
    or a standing order) is not an engine event and carries its own words."""
    if kind == "note":
        return str(payload.get("text", ""))
    if kind == "game_over":  # the engine words only the identifier of why
        winner = payload.get("player", -1)
        name = names[winner] if isinstance(winner, int) and 0 <= winner < len(names) else None
        return wording.game_over(str(payload.get("reason", "")), name)
    try:
        return engine.render_event(engine.event_from_dict(payload), rules, names)
    except (KeyError, TypeError, ValueError, IndexError):
        return kind.replace("_", " ")


def _turn_of(payload: dict[str, Any]) -> int:
    try:
        return int(payload.get("turn_no", 0))
    except (TypeError, ValueError):
        return 0


# --- board ------------------------------------------------------------------------


def board_markup(s: engine.State, game: Game) -> SafeString:
    """The SVG board, or a plain list of positions until games.web.board_svg lands.

    Tokens keep the board's default labels (seat numbers), which match the
    numbered tokens of the players region."""
    try:
        from games.web.board_svg import render_board_live
    except ImportError:
        return _placeholder_board(s)
    try:
        # Only what play changes: the printed board under it (board_base)
        # comes with the page and is never pushed.
        svg = render_board_live(s, highlight_squares=set(_highlight_squares(s)))
    except Exception:
        # A drawing bug must not take the whole game page (and its actions) down.
        logger.exception("Could not draw the board of game %s", game.public_id)
        return _placeholder_board(s)
    return mark_safe(svg)  # render_board escapes every text it writes


def board_base(s: engine.State, *, interactive: bool = False) -> SafeString:
    """The printed board that ``board_markup`` is drawn over (empty if it
    fails); ``interactive``: its squares open their cards."""
    try:
        # escaped by board_svg
        return mark_safe(board_svg.render_board_base(s.rules, interactive=interactive))
    except Exception:
        logger.exception("Could not draw the printed board")
        return mark_safe("")


def _highlight_squares(s: engine.State) -> list[int]:
    squares = []
    if s.pending_sq >= 0:
        squares.append(s.pending_sq)
    au = engine.auction_view(s)
    if au is not None and au.kind == engine.A_PROPERTY and au.square >= 0:
        squares.append(au.square)
    return squares


def _placeholder_board(s: engine.State) -> SafeString:
    items = [
        format_html("<li>{} is on {}</li>", s.names[p], square_name(s.rules, s.pos[p]))
        for p in range(s.n)
        if s.alive[p]
    ]
    dice = ""
    if any(s.dice):
        dice = format_html("<p>Last throw: {} and {}</p>", s.dice[0], s.dice[1])
    return format_html(
        '<div class="board-placeholder"><ul>{}</ul>{}</div>', mark_safe("".join(items)), dice
    )
