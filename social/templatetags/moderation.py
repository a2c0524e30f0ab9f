"""Moderation in templates: the audit log on a profile (staff only), and
evidence shown as it was captured."""

from __future__ import annotations

import json
from typing import Any

from django import template

from social.casefile import staff_history
from social.moderation import may_moderate

register = template.Library()


@register.inclusion_tag("social/profile_moderation.html", takes_context=True)
def profile_moderation(context: dict[str, Any], player: Any) -> dict[str, Any]:
    """The person's moderation history, for moderators only; nothing for anyone else."""
    viewer = context.get("user")
    shown = may_moderate(viewer)
    return {"shown": shown, "player": player, "history": staff_history(player.pk) if shown else []}


@register.filter
def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)
