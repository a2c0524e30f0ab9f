"""WebSocket handshakes are accepted from the site's own pages only.

Browsers send cookies with a WebSocket handshake whatever page opens it, and
there is no CSRF token on it: the ``Origin`` header is the only defence
against another site's page opening a socket with a visitor's session.
Channels' ``AllowedHostsOriginValidator`` compares host names only, so a page
on ``http://localhost:9999`` (any local program) or on the plain-HTTP
variant of an HTTPS site passed. Here the origin's scheme, host and port
must all equal those of the request itself, as a browser's same-origin
policy sees it, or be listed in ``CSRF_TRUSTED_ORIGINS`` (the same list
that lets such an origin POST forms).

A handshake without ``Origin`` is refused: every browser sends one, and a
program that leaves it out can as easily send the right one.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import SplitResult, urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL, or None if it is not one."""
    try:
        parts: SplitResult = urlsplit(url.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin1")
    return None


def is_secure(scope: dict[str, Any]) -> bool:
    """As ``HttpRequest.is_secure``: the proxy's header when
    ``SECURE_PROXY_SSL_HEADER`` is set and the header came, else the scheme."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        header = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        value = _header(scope, header)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") == "wss"


def request_origin(scope: dict[str, Any]) -> tuple[str, str, int] | None:
    """The origin of the page that may open this socket: the handshake's own
    scheme and ``Host``, if the host is one the site answers to."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return origin_of(("https://" if is_secure(scope) else "http://") + host)


def trusted(origin: tuple[str, str, int]) -> bool:
    """Whether ``CSRF_TRUSTED_ORIGINS`` lists ``origin``; ``https://*.example.com``
    covers the subdomains, as Django's CSRF check reads it."""
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        listed = origin_of(entry.replace("://*.", "://", 1))
        if listed is None or listed[0] != scheme or listed[2] != port:
            continue
        if host == listed[1] or (wildcard and is_same_domain(host, "." + listed[1])):
            return True
    return False


class SameOriginValidator:
    """ASGI middleware for WebSocket routes: the handshake goes on to
    ``application`` only when its ``Origin`` is the request's own origin
    or a trusted one; anything else is closed before the consumer runs
    (the client sees 403)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator guards WebSocket connections only")
        if self.allows(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    @staticmethod
    def allows(scope: dict[str, Any]) -> bool:
        header = _header(scope, b"origin")
        origin = origin_of(header) if header else None
        if origin is None:
            return False
        return origin == request_origin(scope) or trusted(origin)
