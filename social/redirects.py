"""Where a social form goes back to."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request: HttpRequest, fallback: str) -> str:
    """``next`` (posted, else in the query) if it is a path on this site, else ``fallback``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    local = target.startswith("/") and not target.startswith("//")
    if local and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback
