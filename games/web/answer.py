"""The answer to the player who made a move: the regions of the version their
move committed, framed as that version's push.

``play_views.game_act`` opens ``answering`` around the write; the push of the
commit (``live.broadcast``) renders that seat's regions once for both the
seat's socket and this answer, and fills ``Answer.html``. When no push ran
(nobody had a socket open) the view renders it itself with ``answer_html``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from games.models import Seat
from games.web.regions import (
    AUDIENCE_REGIONS,
    NO_CSRF,
    PUBLIC_REGIONS,
    push_frame,
    region_context,
    render,
    render_actions,
    render_push,
    shared_context,
)
from games.web.snapshot import Snapshot


@dataclass
class Answer:
    """``html`` stays None when no push rendered it."""

    public_id: str
    user_id: int | None
    html: str | None = None


_answer: ContextVar[Answer | None] = ContextVar("games_web_answer", default=None)


@contextmanager
def answering(public_id: str, user_id: int | None) -> Iterator[Answer]:
    """While this block writes, the push of the game's commit renders the
    regions of ``user_id``'s seat once for both the seat's socket and the
    block's answer."""
    answer = Answer(public_id, user_id)
    token = _answer.set(answer)
    try:
        yield answer
    finally:
        _answer.reset(token)


def awaited(public_id: str) -> Answer | None:
    """The answer this thread's write is waiting for, if it is for this game."""
    answer = _answer.get()
    return answer if answer is not None and answer.public_id == public_id else None


def answer_html(
    snap: Snapshot,
    seat: Seat,
    *,
    shared: dict[str, Any] | None = None,
    public: str | None = None,
    context: dict[str, Any] | None = None,
    regions: str | None = None,
    pushed_panel: str | None = None,
) -> str:
    """A seat's answer to its own move: framed as the version's push, the
    action panel first as the htmx target (not out of band, so that it
    replaces the panel the form was in), then every other region out of band
    exactly as the push carries them (the log as the version's new lines).
    ``static/js/live.js`` applies it as it applies a push, so a push of the
    same version arriving first or after changes nothing twice. The other
    arguments are what the push already rendered for it (``pushed_panel``:
    the seat's own out-of-band panel, the largest region a push renders)."""
    if shared is None:
        shared = {**shared_context(snap), **NO_CSRF}
    if public is None:
        public = render(PUBLIC_REGIONS, shared)
    if context is None:
        context = region_context(snap, seat, shared=shared)
    if regions is None:
        regions = render_push(AUDIENCE_REGIONS, context)
    panel = as_target(pushed_panel) if pushed_panel is not None else None
    if panel is None:
        panel = render_actions({**context, "oob": False})
    return f"{push_frame(snap)}{panel}{public}{regions}"


OUT_OF_BAND_MARK = 'hx-swap-oob="true"'


def as_target(panel: str) -> str | None:
    """The seat's out-of-band action panel as the htmx target: the same
    bytes as its render without ``oob``, which differs only by the mark in
    the section's opening tag. None if the mark is not where it should be."""
    start = panel.find('<section id="actions"')
    end = panel.find(">", start)
    mark = panel.find(OUT_OF_BAND_MARK, start, end)
    if start < 0 or mark < 0:
        return None
    return panel[:mark] + panel[mark + len(OUT_OF_BAND_MARK) :]
