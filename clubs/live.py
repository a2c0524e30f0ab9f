"""The club chat's pushes. Each open chat socket (``clubs.consumers``) is in
its club's group; a new line goes out rendered three ways (for its author,
for a member, for a leader) with its author's id, so that each socket drops
it if its viewer does not see the author (``live.chatview``). Anything else
that changes the chat (a deletion, a mute, someone leaving) tells the
sockets to draw the pane afresh for their viewer. Sent after commit only."""

from __future__ import annotations

import logging

from django.db import transaction

from clubs.chatpane import line_html
from clubs.models import ChatLine
from live import groups

logger = logging.getLogger(__name__)


def chat_group(club_pk: int) -> str:
    return f"club-{club_pk}-chat"


def _send(club_pk: int, message: dict[str, object]) -> None:
    try:
        groups.send([(chat_group(club_pk), message)])
    except Exception:
        # Stored already: readers get it with their next page or reconnect.
        logger.exception("Could not push to the chat of club %s", club_pk)


def chat_changed(club_pk: int) -> None:
    transaction.on_commit(lambda: _send(club_pk, {"type": "club.refresh"}))


def members_changed(club_pk: int) -> None:
    """Someone left or was removed, banned or made (no longer) a leader:
    each socket checks its viewer is still a member, and what they may do."""
    chat_changed(club_pk)


def line_posted(line: ChatLine) -> None:
    transaction.on_commit(lambda: push_line(line))


def push_line(line: ChatLine) -> None:
    if getattr(line.author, "shadow_muted", False):
        return  # its author alone sees it, in the answer to the post
    _send(
        line.club_id,
        {
            "type": "club.line",
            "author": line.author_id,
            "own": line_html(line, viewer_id=line.author_id, leader=False),
            "member": line_html(line, viewer_id=None, leader=False),
            "leader": line_html(line, viewer_id=None, leader=True),
        },
    )
