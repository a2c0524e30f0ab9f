"""Where the site may send a Web Push: a push service's https address on the
public internet, never the site's own network.

A subscription's endpoint comes from the browser, so from whoever posts it.
Posted unchecked, the worker would POST (with the site's VAPID header) to a
loopback port, Redis, or the cloud's metadata address, and a 404 or 410
deleting the row told the poster whether something answered there. So an
endpoint must be https and every address its host resolves to must be public
(not loopback, private, link-local, multicast, shared or reserved, in IPv4
or IPv6, IPv4-mapped included), checked when a device subscribes and again
before each send, since a name can resolve elsewhere by then. The send then
connects to the very address it checked (``pinned_session``): a name that
changes between the check and the connection cannot slip past it.

The tests' stand-in push service listens on loopback over plain HTTP; the
setting ``PUSH_LOCAL_ENDPOINTS`` (origins, empty outside the tests) lets
exactly those through.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils.translation import gettext as _
from requests.adapters import HTTPAdapter


class EndpointRefused(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Target:
    """A checked endpoint: where to connect (None: a test's local origin)."""

    host: str
    port: int
    address: str | None


def _origin(scheme: str, host: str, port: int) -> str:
    return f"{scheme}://{host}:{port}"


def _local_origins() -> set[str]:
    out = set()
    for origin in getattr(settings, "PUSH_LOCAL_ENDPOINTS", []):
        parts = urlsplit(origin)
        out.add(_origin(parts.scheme, parts.hostname or "", parts.port or 443))
    return out


NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # reaches the IPv4 address in its last 32 bits


def is_public(address: str) -> bool:
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif ip in NAT64:
            ip = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip.is_global and not ip.is_multicast


def _resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise EndpointRefused(_("The push service's address does not resolve.")) from None
    return [str(info[4][0]) for info in infos]


def check(endpoint: str) -> Target:
    """The endpoint's target if the site may push there, else EndpointRefused."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise EndpointRefused(_("The push service's address is not a valid URL.")) from None
    host = parts.hostname or ""
    if not host or parts.username is not None or parts.password is not None:
        raise EndpointRefused(_("The push service's address is not a valid URL."))
    if _origin(parts.scheme, host, port) in _local_origins():
        return Target(host, port, None)
    if parts.scheme != "https":
        raise EndpointRefused(_("The push service's address must start with https://."))
    addresses = _resolve(host, port)
    if not addresses or not all(is_public(a) for a in addresses):
        raise EndpointRefused(_("The push service's address is not on the public internet."))
    return Target(host, port, addresses[0])


class _PinnedAdapter(HTTPAdapter):
    """Connects to the checked address while speaking TLS (SNI, certificate)
    and HTTP (Host) to the push service's name."""

    def __init__(self, target: Target) -> None:
        self.target = target
        super().__init__(max_retries=0)

    def build_connection_pool_key_attributes(
        self, request: Any, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        if self.target.address is not None:
            host_params["host"] = self.target.address
            pool_kwargs["server_hostname"] = self.target.host
            pool_kwargs["assert_hostname"] = self.target.host
        return host_params, pool_kwargs

    def send(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if self.target.address is not None:
            default = self.target.port == 443
            request.headers["Host"] = (
                self.target.host if default else f"{self.target.host}:{self.target.port}"
            )
        return super().send(request, *args, **kwargs)


def pinned_session(target: Target) -> requests.Session:
    """A session that sends only to ``target`` (no redirects followed)."""
    session = requests.Session()
    session.max_redirects = 0
    session.trust_env = False  # no proxy from the environment in between
    adapter = _PinnedAdapter(target)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session
