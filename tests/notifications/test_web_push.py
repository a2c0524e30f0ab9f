"""Web Push: a device subscribes, and "your move" reaches it encrypted for
that device only, through a local push endpoint standing in for the
browser's push service (real ones are outside this machine)."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail
from django.test import Client
from py_vapid import Vapid01

from games.models import Game
from notifications import decisions, push
from notifications.management.commands.vapid_keys import b64url, new_keys
from notifications.models import Notification, PushSubscription

pytestmark = pytest.mark.django_db


class PushService(BaseHTTPRequestHandler):
    """Keeps what it is sent; answers as push services do (201), or 410 for
    a subscription the test says is gone."""

    received: list[tuple[str, dict[str, str], bytes]] = []
    gone: set[str] = set()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(410 if self.path in self.gone else 201)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def service(settings: Any) -> Iterator[str]:
    PushService.received, PushService.gone = [], set()
    server = HTTPServer(("127.0.0.1", 0), PushService)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    origin = f"http://127.0.0.1:{server.server_port}"
    # Loopback over plain HTTP: allowed for this origin by the test settings alone.
    settings.PUSH_LOCAL_ENDPOINTS = [origin]
    try:
        yield origin
    finally:
        server.shutdown()


@pytest.fixture
def vapid(settings: Any) -> str:
    public, private = new_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:ops@example.com"
    return public


class Device:
    """A browser's side of a subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.json = {
            "endpoint": endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> Any:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth))


def subscribe(client: Client, device: Device) -> Any:
    return client.post(
        "/notifications/push/subscribe", json.dumps(device.json), content_type="application/json"
    )


def test_a_device_subscribes_and_its_your_move_push_decrypts_there(
    client: Client, duel: Game, no_bot_tasks: Any, service: str, vapid: str
) -> None:
    decisions.your_turn(duel.pk)
    (note,) = Notification.objects.filter(kind="your_turn")
    user = note.user
    user.email_notifications = False
    user.save()
    client.force_login(user)
    phone, other = Device(f"{service}/push/phone"), Device(f"{service}/push/other")
    assert subscribe(client, phone).status_code == 201
    assert PushSubscription.objects.get().user == user
    assert decisions.turn_email(note.pk)  # away long enough: the sweep's task
    ((path, headers, body),) = PushService.received
    assert path == "/push/phone" and headers["content-encoding"] == "aes128gcm"
    assert (
        headers["authorization"].startswith("vapid t=") and f"k={vapid}" in headers["authorization"]
    )
    message = phone.decrypt(body)
    assert message["title"] == f"Your move in game {duel.public_id}"
    assert message["url"] == duel.get_absolute_url() and "Decide by" in message["body"]
    with pytest.raises(http_ece.ECEException):  # for the phone, not for anyone else
        other.decrypt(body)
    assert not mail.outbox


def test_the_vapid_signature_verifies_with_the_sites_public_key(
    client: Client, duel: Game, no_bot_tasks: Any, service: str, vapid: str
) -> None:
    user = duel.seats.get(number=0).user
    client.force_login(user)
    subscribe(client, Device(f"{service}/push/phone"))
    assert push.send(user.pk, "t", "b", "/") == 1
    ((_, headers, _),) = PushService.received
    token = headers["authorization"].split("t=", 1)[1].split(",")[0]
    site = Vapid01.from_raw_public(vapid.encode())
    head, payload, signature = token.split(".")  # a JWT, signed over its first two parts
    assert site.verify_token(f"{head}.{payload}".encode(), signature)
    assert not site.verify_token(f"{head}.{payload}x".encode(), signature)
    assert json.loads(base64.urlsafe_b64decode(payload + "=="))["aud"] == service


def test_a_subscription_the_push_service_says_is_gone_is_dropped(
    client: Client, duel: Game, no_bot_tasks: Any, service: str, vapid: str
) -> None:
    user = duel.seats.get(number=0).user
    client.force_login(user)
    subscribe(client, Device(f"{service}/push/old"))
    PushService.gone.add("/push/old")
    assert push.send(user.pk, "t", "b", "/") == 0
    assert not PushSubscription.objects.exists()


def test_bad_subscriptions_are_refused_and_change_nothing(
    client: Client, alice: Any, vapid: str
) -> None:
    client.force_login(alice)
    bad = [
        "not json",
        json.dumps({"endpoint": "ftp://x", "keys": {}}),
        json.dumps({"endpoint": "https://push.example/1", "keys": {"p256dh": "AA", "auth": "AA"}}),
    ]
    for body in bad:
        response = client.post(
            "/notifications/push/subscribe", body, content_type="application/json"
        )
        assert response.status_code == 400 and response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_push_is_off(client: Client, alice: Any, settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    client.force_login(alice)
    assert "data-push=" not in client.get("/notifications/").content.decode()
    assert subscribe(client, Device("https://push.example/1")).status_code == 400


def test_the_service_worker_is_served_from_the_root(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript"
    assert b'addEventListener("push"' in response.content
