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


def check_line(user: Any, body: str, *, where: str = "") -> str:
    """``body`` as it may be stored (its filtered words masked), or
    ``ChatError`` with why not. ``where``: the game, for a report's evidence."""
    from live.chat import ChatError

    if getattr(user, "no_chat", False):
        raise ChatError(
            _("You have turned chat off in your privacy settings: turn it on to write."), 403
        )
    if newcomers.has_link(body) and newcomers.is_newcomer(user):
        raise ChatError(
            _("New accounts cannot post links in chat yet.") + " " + newcomers.newcomer_wait_words()
        )
    screened = wordfilter.screen(body)
    if not screened.matched:
        return body
    wordfilter.count_match(user, screened, where)
    if wordfilter.refuses():
        raise ChatError(
            _("This message contains words this site does not allow in chat; it was not sent.")
        )
    return screened.masked
