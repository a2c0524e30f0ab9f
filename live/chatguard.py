"""What a chat line must pass besides its form (``live.chat.check_body``):
its author has not turned chat off, a new account posts no link, and the
chat filter (``people.wordfilter``) refuses it or masks its words.

Kept apart from the moderators' checks (a chat timeout, a shadow mute), which
``live.chat.do_post_message`` makes beside this one.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import newcomers
from people import wordfilter


class LineRefused(Exception):
    """Why a line may not be posted (``live.chat`` shows it as a ``ChatError``)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def check_line(user: Any, body: str, *, where: str = "") -> str:
    """``body`` as it may be stored (its filtered words masked), or
    ``LineRefused`` with why not. ``where``: the game, for a report's evidence."""
    if getattr(user, "no_chat", False):
        raise LineRefused(
            _("You have turned chat off in your privacy settings: turn it on to write."), 403
        )
    if newcomers.has_link(body) and newcomers.is_newcomer(user):
        raise LineRefused(
            _("New accounts cannot post links in chat yet.") + " " + newcomers.newcomer_wait_words()
        )
    screened = wordfilter.screen(body)
    if not screened.matched:
        return body
    wordfilter.count_match(user, screened, where)
    if wordfilter.refuses():
        raise LineRefused(
            _("This message contains words this site does not allow in chat; it was not sent.")
        )
    return screened.masked
