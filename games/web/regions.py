"""The screen regions of the game page, each declared once.

A region is one element of ``games/game.html`` with a stable id, rendered
by the template partial of the same name. Its audience says who gets it
and from which context: a PUBLIC region is alike for every viewer and is
rendered from ``shared_context`` once per version; a VIEWER region differs
per viewer (a spectator, or a seat) and a SEAT region is a seat's own, both
rendered from ``region_context``. A SPECTATOR region goes to spectators
only, never to a seat's holder however they open the game (the win bar:
engine help during a game), rendered from ``spectator_context``; it has a
push of its own (``live.winbar``), and its ``data-version`` is the version
its content is for, which may trail the game (``data-trails``). The full
page, the htmx answer to a move or a resync and the WebSocket push all read
this declaration; a push sends spectators only PUBLIC and VIEWER regions,
rendered for no seat.

Adding a region: declare it here, write its partial (with ``id`` equal to
the name and ``data-version``), and put what it needs in one of the two
context builders. ``tests/games/test_regions.py`` checks the rest.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlencode

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language

from common.memo import Memo
from games import wording
from games.models import Game, Seat
from games.switches import PRESET_LABELS
from games.templatetags.memo import NO_CSRF_TOKEN, Versioned, with_version
from games.web import presenters, timer_presenters, win_bar
from games.web.action_forms import Panel, panel
from games.web.snapshot import Snapshot

TEMPLATE: Final = "games/game.html"
PUBLIC: Final = "public"
VIEWER: Final = "viewer"
SEAT: Final = "seat"
SPECTATOR: Final = "spectator"


@dataclass(frozen=True)
class Region:
    name: str  # the element id and the partial's name
    audience: str  # PUBLIC, VIEWER, SEAT or SPECTATOR

    @property
    def partial(self) -> str:
        return f"{TEMPLATE}#{self.name}"


# In the order a page and a push carry them.
REGIONS: Final = (
    Region("status", PUBLIC),
    Region("board", PUBLIC),
    Region("win-bar", SPECTATOR),
    Region("pending", VIEWER),
    Region("players", VIEWER),
    Region("log", VIEWER),
    Region("actions", SEAT),
)


def names(*audiences: str) -> tuple[str, ...]:
    return tuple(r.name for r in REGIONS if r.audience in audiences)


PUBLIC_REGIONS: Final = names(PUBLIC)
AUDIENCE_REGIONS: Final = names(VIEWER)  # what a spectator gets beside the public ones
SEAT_REGIONS: Final = names(VIEWER, SEAT)
SPECTATOR_REGIONS: Final = names(SPECTATOR)  # never rendered for a seat's holder
# The htmx answer: the action panel is the swap target, the rest out of band
# (a spectator's resync adds the SPECTATOR regions).
OUT_OF_BAND: Final = tuple(
    r.name for r in REGIONS if r.name != "actions" and r.audience != SPECTATOR
)


def urls(game: Game) -> dict[str, str]:
    base = game.get_absolute_url()
    return {
        "page": base,
        "act": f"{base}act",
        "resign": f"{base}resign",
        "regions": f"{base}regions",
    }


def shared_context(snap: Snapshot) -> dict[str, Any]:
    """The context builder of the PUBLIC regions: what every viewer sees
    alike. The broadcast renders these once per version."""
    game, state = snap.game, snap.state
    assert state is not None
    ranking = presenters.ranking(snap)
    return {
        "snapshot": snap,
        "game": game,
        "state": state,
        "rules": state.rules,
        "urls": urls(game),
        "finished": state.finished,
        "end_line": presenters.end_line(state) if state.finished else "",
        "turn_line": presenters.turn_line(state),
        "preset_label": PRESET_LABELS.get(game.preset, game.preset),
        "length_cap": wording.length_cap(state.rules),
        "ranking": ranking,
        # The final banner then says in one line why the changes are uneven.
        "rated": any(row["rating"] for row in ranking),
        "board_svg": presenters.board_markup(state, game),
        "dice": state.dice if any(state.dice) else None,
    }


def region_context(
    snap: Snapshot,
    seat: Seat | None,
    *,
    action_panel: Panel | None = None,
    error: str = "",
    focus: bool = False,
    shared: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The context builder of the VIEWER and SEAT regions, for ``seat`` (None:
    a spectator), on top of ``shared`` (``shared_context``, if the caller
    has it)."""
    if shared is None:
        shared = shared_context(snap)
    game, state = snap.game, snap.state
    assert state is not None
    viewer = seat.number if seat is not None else None
    playing = seat is not None and seat.status == Seat.Status.PLAYING
    if action_panel is None:
        action_panel = panel(state, viewer if playing else None)
    waiting = presenters.pending(state, viewer)
    _offer_report_urls(snap, action_panel)
    return {
        **shared,
        "seat": seat,
        "viewer": viewer,
        "playing": playing and game.status == Game.Status.ACTIVE,
        "players": presenters.players(snap, viewer),
        "pending": waiting,
        # The tab title and favicon say so (static/js/your-move.js).
        "your_move": playing and any(line["mine"] and line["blocking"] for line in waiting),
        # Worded and grouped only where the whole log is shown: a push
        # carries only the lines its version added (``log_delta``).
        "log": SimpleLazyObject(lambda: presenters.log(snap, viewer)),
        "panel": action_panel,
        "error": error,
        "focus": focus,
        **timer_presenters.timer_context(snap, seat),
    }


def report_url(username: str, source: str, ref: str, back: str) -> str:
    """The report page for ``username`` about ``ref`` (social's view, by name)."""
    query = urlencode({"source": source, "ref": ref, "next": back})
    return f"{reverse('report_user', kwargs={'username': username})}?{query}"


def _offer_report_urls(snap: Snapshot, action_panel: Panel) -> None:
    """Each offer made to the viewer can be reported (collusion, harassment)."""
    people = {s.number: s.user.username for s in snap.seats if s.user is not None}
    back = snap.game.get_absolute_url()
    for offer in action_panel.incoming:
        name = people.get(offer.get("from_seat", -1))
        ref = f"{snap.game.public_id}:{offer['id']}"
        offer["report_url"] = report_url(name, "trade", ref, back) if name else ""


def spectator_context(snap: Snapshot) -> dict[str, Any]:
    """The context builder of the SPECTATOR regions: only ever called for a
    viewer who holds no seat in the game (one query)."""
    return win_bar.spectator_context(snap.game, snap.seats)


# Rendered without a request (pushes, answers): the forms' CSRF token rides in
# the page's hx-headers instead, so tell {% csrf_token %} not to look for one.
NO_CSRF: Final = {"csrf_token": NO_CSRF_TOKEN, "oob": True}


def push_frame(snap: Snapshot) -> str:
    """How a push of the version is framed (``static/js/live.js``):
    ``<!--push N-->`` for one that builds on version N-1, ``<!--push N after
    B-->`` for one that builds on B (a move that set off standing orders or
    instant bots committed the versions between): a page that shows B takes
    it as one step, and only one that shows less has missed something."""
    version = snap.game.version
    if snap.base == version - 1:
        return f"<!--push {version}-->"
    return f"<!--push {version} after {snap.base}-->"


def render(names: tuple[str, ...], context: dict[str, Any]) -> str:
    """The named regions' partials, in order."""
    return "".join(
        render_actions(context)
        if name == "actions"
        else render_to_string(f"{TEMPLATE}#{name}", context)
        for name in names
    )


# --- the action panel, remembered by what it shows ------------------------------
#
# A seat's panel is the largest region a push renders (8 to 12 kB of forms:
# the decision, each property's, a trade form per partner), and the one
# rendered once per seat. Between two versions most seats' panels differ
# only by the version the forms carry (``expected_version``, ``data-version``),
# so the panel is rendered with a mark in place of the version, remembered by
# everything else it is rendered from, and the version put in afterwards. It
# is rendered from those values only (as an include with ``only``), so
# nothing else of the context (another seat's, the state's) can get into it.

# What the ``actions`` partial and its includes read, besides ``game.version``.
ACTION_VALUES: Final = ("panel", "playing", "error", "focus", "finished", "oob", "urls")
ACTION_PANELS: Memo[str] = Memo("actions", 1024)


def render_actions(context: dict[str, Any]) -> str:
    """The ``actions`` partial for the context's seat, as ``render_to_string``
    gives it. Only a push's or an answer's (no CSRF token: one rendered for a
    request carries that person's token) is remembered."""
    name = f"{TEMPLATE}#actions"
    if context.get("csrf_token") != NO_CSRF_TOKEN:
        return render_to_string(name, context)
    seat = context.get("seat")
    values = {key: context.get(key) for key in ACTION_VALUES}
    # The partial asks only whether there is a seat.
    values["seat"] = None if seat is None else True
    values["csrf_token"] = context["csrf_token"]
    try:
        key: Any = (get_language(), pickle.dumps(values, protocol=5))
    except (pickle.PicklingError, TypeError, AttributeError):
        key = None
    html = ACTION_PANELS.get(key) if key is not None else None
    if html is None:
        html = render_to_string(name, {**values, "game": Versioned()})
        if key is not None:
            ACTION_PANELS.put(key, html, version=context["game"].version)
    return with_version(html, context["game"].version)


def render_push(names: tuple[str, ...], context: dict[str, Any]) -> str:
    """As ``render``, but the log as only what this version added to it
    when there was a log to add to (a few hundred bytes instead of the whole)."""
    seat = context["seat"]
    delta = None
    if "log" in names:
        viewer = seat.number if seat is not None else None
        delta = presenters.log_delta(context["snapshot"], viewer)
    if delta is None:
        return render(names, context)
    html = render(tuple(n for n in names if n != "log"), context)
    return html + render_to_string(f"{TEMPLATE}#log_delta", {**context, "log_delta": delta})
