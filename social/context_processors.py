from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from social.reads import unread_count


def unread(request: HttpRequest) -> dict[str, Any]:
    """The navigation's count of unread conversations (once per request)."""
    count = getattr(request, "_unread_conversations", None)
    if count is None:
        count = unread_count(getattr(request, "user", None))
        request._unread_conversations = count  # type: ignore[attr-defined]
    return {"unread_conversations": count}
