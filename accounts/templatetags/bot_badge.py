"""``{% bot_badge user %}``: the BOT badge beside a bot account's name, the
one way every list shows it (players, lobby, leaderboard, profile, watch)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

TITLE = "Bot account: a program playing through the API"


@register.simple_tag
def bot_badge(who: Any) -> SafeString | str:
    """``who``: a user, or already whether they are a bot account."""
    flag = who if isinstance(who, bool) else bool(getattr(who, "bot_account", False))
    if not flag:
        return ""
    return format_html(
        ' <span class="badge bot-account" title="{}"><abbr title="{}">BOT</abbr></span>',
        TITLE,
        TITLE,
    )
