"""The /watch/ lists: live public games with their players, ratings and
turn, and the recently finished ones with their results."""

from __future__ import annotations

import re
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Prefetch
from django.utils.safestring import mark_safe

from games import engine, estimates
from games.models import Game, Seat
from games.switches import PRESET_LABELS
from games.web import win_bar
from games.web.board_svg import render_board_base, render_board_live
from games.web.presenters import turn_line
from games.wording import end_reason
from live.presence import watching_counts
from ratings.models import PlayerRating
from ratings.services import rating_pool

SORTS = {"recent": "Recent activity", "spectators": "Most watched"}
LIMIT = 50
# Why a row shows no chances (``win_note``): estimated, but held back a
# full round (games.estimates); or the viewer plays in the game.
WITHHELD, YOURS = "withheld", "yours"


def watch_rows(sort: str = "recent") -> list[dict[str, Any]]:
    """The live public games, each with the spectators' win bar when there
    is an estimate to show, else a ``win_note`` saying why not ("withheld":
    estimated, but none is a full round old yet; "": not estimated);
    ``hide_win_bars`` takes the bar off for a viewer who plays in the game."""
    games = list(
        Game.objects.filter(status=Game.Status.ACTIVE, is_public=True)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-updated_at")[: LIMIT * 2]
    )
    user_ids = {seat.user_id for game in games for seat in game.seats.all() if seat.user_id}
    ratings = {(r.user_id, r.pool): r for r in PlayerRating.objects.filter(user_id__in=user_ids)}
    watchers = watching_counts([game.pk for game in games])
    shown = estimates.shown_many(games[:LIMIT])
    if sort == "spectators":
        # Stable sort: games equally watched keep their recent-activity order.
        games.sort(key=lambda game: -watchers.get(game.pk, 0))
    rows = []
    for game in games:
        state = engine.from_dict(game.state or {})
        pool = rating_pool(game, list(game.seats.all()))
        players = []
        for seat in game.seats.all():
            rating = ratings.get((seat.user_id, pool)) if seat.user_id and pool else None
            players.append(
                {
                    "name": seat.name,
                    "is_bot": seat.is_bot,
                    "bot_account": seat.user is not None and seat.user.bot_account,
                    "out": not state.alive[seat.number],
                    "rating": rating.shown if rating else None,
                }
            )
        rows.append(
            {
                "game": game,
                "preset_label": PRESET_LABELS.get(game.preset, game.preset),
                "players": players,
                "turn_no": state.turn_no + 1,
                "turn_name": state.names[state.turn],
                "watching": watchers.get(game.pk, 0),
                "win_bar": win_bar.bar(game, list(game.seats.all()), found)
                if (found := shown.get(game.pk)) is not None
                else None,
                "win_note": WITHHELD if game.pk in shown and found is None else "",
            }
        )
    return rows[:LIMIT]


def seated_in(user: Any, game_pks: list[int]) -> frozenset[int]:
    """Which of the games ``user`` holds a seat in."""
    if not getattr(user, "is_authenticated", False) or not game_pks:
        return frozenset()
    seats = Seat.objects.filter(user_id=user.pk, game_id__in=game_pks)
    return frozenset(seats.values_list("game_id", flat=True))


def hidden_win_bars(rows: list[dict[str, Any]], user: Any) -> frozenset[int]:
    """The games of ``rows`` whose win bar ``user`` may not see: those they
    play in (it would be engine help), whichever page it is on."""
    estimated = [row["game"].pk for row in rows if row["win_bar"] is not None or row["win_note"]]
    return seated_in(user, estimated)


def hide_win_bars(rows: list[dict[str, Any]], hidden: frozenset[int]) -> list[dict[str, Any]]:
    if not hidden:
        return rows
    return [
        {**row, "win_bar": None, "win_note": YOURS} if row["game"].pk in hidden else row
        for row in rows
    ]


FINISHED_PER_PAGE = 20
# Only the most recent are listed: older games stay on their players' profiles.
FINISHED_CAP = 500


def finished_rows(page_number: Any) -> Page[Any]:
    """A page of the most recently finished public games, each with its
    ranking (winner first), its length in turns and time, and its replay."""
    recent = (
        Game.objects.filter(status=Game.Status.FINISHED, is_public=True)
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[:FINISHED_CAP]
    )
    page = Paginator(list(recent), FINISHED_PER_PAGE).get_page(page_number)
    games = (
        Game.objects.filter(pk__in=list(page.object_list))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-finished_at", "-pk")
    )
    rows: list[Any] = []
    for game in games:
        state = game.state or {}
        seats = sorted(game.seats.all(), key=lambda s: (s.final_rank or 99, s.number))
        ranking = [
            {
                "rank": seat.final_rank,
                "name": seat.name,
                "is_bot": seat.is_bot,
                "bot_account": seat.user is not None and seat.user.bot_account,
            }
            for seat in seats
        ]
        winner = ranking[0]["name"] if ranking and ranking[0]["rank"] == 1 else ""
        reason = str(state.get("end_reason") or game.end_reason or "")
        rows.append(
            {
                "game": game,
                "preset_label": PRESET_LABELS.get(game.preset, game.preset),
                "ranking": ranking,
                "winner": winner,
                "reason": end_reason(reason),
                # Numbered as the replay numbers them: the last turn played.
                "turns": int(state.get("turn_no", 0)) + 1,
                "started_at": game.started_at,
                "finished_at": game.finished_at,
            }
        )
    page.object_list = rows
    return page


HOME_GAMES = 3
# Ids in a board's SVG name its squares and tokens on the game page; three
# boards on one page would repeat them, so the small boards drop them (and
# the labels that point at them: each card has its own text). The hatching
# pattern keeps its id, which its fill refers to (the same in every board).
_IDS = re.compile(r'\s(?:id="(?!mb-hatch")[^"]*"|aria-labelledby="[^"]*"|aria-describedby="[^"]*")')


def mini_board(svg: str) -> str:
    """A board SVG for a small card: without its ids (static/js/home-live.js
    treats the pushed ones alike)."""
    return _IDS.sub("", svg)


def home_games(limit: int = HOME_GAMES) -> list[dict[str, Any]]:
    """The public games in play most recently moved, as small boards for the
    home page: what any spectator sees (the printed board and the live
    layer), which the page keeps up to date over the games' spectator sockets."""
    games = (
        Game.objects.filter(status=Game.Status.ACTIVE, is_public=True)
        .exclude(state__isnull=True)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-updated_at")[:limit]
    )
    cards = []
    for game in games:
        state = engine.from_dict(game.state or {})
        cards.append(
            {
                "game": game,
                # mark_safe: the board's renderers escape every text they draw.
                "base": mark_safe(mini_board(render_board_base(state.rules))),
                "live": mark_safe(mini_board(render_board_live(state))),
                "turn_line": turn_line(state),
                "players": [seat.name for seat in game.seats.all()],
            }
        )
    return cards
