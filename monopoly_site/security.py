"""Response headers that tell the browser what a page may do (README, "Security headers").

The Content-Security-Policy itself is django-csp's, configured in settings;
this module adds the page's own WebSocket address to it and sends the
Permissions-Policy, which Django has no setting for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


class SiteCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, with the page's own ``ws://`` or ``wss://``
    origin added to ``connect-src``. CSP level 3 lets ``'self'`` match the
    same host's WebSocket scheme, but browsers that implement level 2 only
    (Safari before 15.4) block the live updates without it."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts  # the answer is a 400 anyway; it opens no socket
        socket = ("wss://" if request.is_secure() else "ws://") + host
        parts.update = {**(parts.update or {}), "connect-src": [socket]}
        return parts


def permissions_policy(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """Send ``settings.PERMISSIONS_POLICY`` with every response."""
    header = ", ".join(
        f"{feature}=({' '.join(allowed)})"
        for feature, allowed in settings.PERMISSIONS_POLICY.items()
    )

    def middleware(request: HttpRequest) -> Any:
        response = get_response(request)
        response.headers.setdefault("Permissions-Policy", header)
        return response

    return middleware
