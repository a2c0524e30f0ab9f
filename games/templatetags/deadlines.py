"""``{{ due_at|deadline }}``: a deadline's moment as every page and push
writes it (games.deadlines.format_deadline)."""

from __future__ import annotations

from datetime import datetime

from django import template

from games.deadlines import format_deadline

register = template.Library()


@register.filter
def deadline(moment: datetime | None) -> str:
    return format_deadline(moment) if moment is not None else ""
