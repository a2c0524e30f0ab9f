from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from notifications.services import unread_count


def unread(request: HttpRequest) -> dict[str, Any]:
    """The navigation's unread count (one indexed count per page)."""
    return {"unread_notifications": unread_count(getattr(request, "user", None))}
