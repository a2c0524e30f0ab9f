"""Which WebSocket handshakes SameOriginValidator lets through, from the
headers alone (tests/live/test_origin.py connects for real)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from monopoly_site.origin import SameOriginValidator

HOST = "127.0.0.1:8000"


def handshake(origin: str | None, host: str | None = HOST, **extra: Any) -> dict[str, Any]:
    headers = [(b"host", host.encode())] if host is not None else []
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    for name, value in extra.pop("headers", []):
        headers.append((name, value))
    return {"type": "websocket", "path": "/ws/", "headers": headers, **extra}


def allows(scope: dict[str, Any]) -> bool:
    return SameOriginValidator.allows(scope)


@pytest.mark.parametrize(
    "origin",
    [
        "http://localhost:9999",  # another port, another host
        "http://127.0.0.1:9999",  # another port
        "https://127.0.0.1:8000",  # another scheme
        "https://127.0.0.1",
        "http://127.0.0.1",  # port 80
        "http://evil.example",
        "http://127.0.0.1.evil.example:8000",
        "null",  # a sandboxed frame or a file: page
        "ws://127.0.0.1:8000",
        "not a url",
    ],
)
def test_refuses_an_origin_other_than_the_requests_own(origin: str) -> None:
    assert not allows(handshake(origin))


def test_accepts_the_requests_own_origin() -> None:
    assert allows(handshake("http://127.0.0.1:8000"))
    assert allows(handshake("HTTP://127.0.0.1:8000"))
    assert allows(handshake("http://localhost", host="localhost"))
    assert allows(handshake("http://localhost:80", host="localhost"))


def test_refuses_a_handshake_without_origin() -> None:
    assert not allows(handshake(None))


def test_refuses_a_host_the_site_does_not_serve_even_from_itself() -> None:
    assert not allows(handshake("http://evil.example:8000", host="evil.example:8000"))
    assert not allows(handshake("http://127.0.0.1:8000", host=None))


def test_a_tls_connection_expects_an_https_origin() -> None:
    assert allows(handshake("https://localhost", host="localhost", scheme="wss"))
    assert not allows(handshake("http://localhost", host="localhost", scheme="wss"))


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_a_tls_proxy_the_forwarded_scheme_counts() -> None:
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert allows(handshake("https://localhost", host="localhost", headers=forwarded))
    assert not allows(handshake("http://localhost", host="localhost", headers=forwarded))


@override_settings(SECURE_PROXY_SSL_HEADER=None)
def test_without_a_tls_proxy_a_forwarded_scheme_is_ignored() -> None:
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert allows(handshake("http://localhost", host="localhost", headers=forwarded))
    assert not allows(handshake("https://localhost", host="localhost", headers=forwarded))


@override_settings(
    CSRF_TRUSTED_ORIGINS=["https://play.example.com", "https://*.monopoly.example"],
    ALLOWED_HOSTS=["monopoly.example.com"],
)
def test_accepts_an_origin_listed_in_csrf_trusted_origins() -> None:
    host = "monopoly.example.com"
    assert allows(handshake("https://play.example.com", host=host))
    assert allows(handshake("https://eu.monopoly.example", host=host))
    assert not allows(handshake("http://play.example.com", host=host))
    assert not allows(handshake("https://play.example.com:8443", host=host))
    assert not allows(handshake("https://evilmonopoly.example", host=host))
