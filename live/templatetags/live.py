"""``{% live_presence %}`` and ``{% live_chat %}`` for the game page."""

from __future__ import annotations

from typing import Any

from django import template

from live.chat import chat_context

register = template.Library()


@register.inclusion_tag("live/presence.html", takes_context=True)
def live_presence(context: template.Context) -> dict[str, Any]:
    # The socket's snapshot fills in who is here; until then, a placeholder.
    return {"connecting": True, "seats": [], "watching": 0}


@register.inclusion_tag("live/chat.html", takes_context=True)
def live_chat(context: template.Context) -> dict[str, Any]:
    game, seat = context["game"], context.get("seat")
    user = context.get("user")
    return {**chat_context(game, seat, user), "csrf_token": context.get("csrf_token")}
