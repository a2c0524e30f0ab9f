from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from notifications.services import unread_count


def unread(request: HttpRequest) -> dict[str, Any]:
    """The navigation's unread count (one indexed count per page). A response
    built from several fragments (an htmx answer) counts once."""
    count = getattr(request, "_unread_notifications", None)
    if count is None:
        count = unread_count(getattr(request, "user", None))
        request._unread_notifications = count  # type: ignore[attr-defined]
    return {"unread_notifications": count}
