"""Where a push may go (notifications/endpoints.py): an https push service
on a public address, owned by one account. Loopback, private, link-local,
multicast and reserved addresses are refused when a device subscribes and
again when a push is sent (a name can resolve elsewhere by then); the send
connects to the address it checked; and nobody takes over another account's
subscription. The tests' local push service is allowed only by the test
setting PUSH_LOCAL_ENDPOINTS."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.test import Client

from notifications import endpoints, push
from notifications.models import PushSubscription
from tests.notifications.test_web_push import Device, PushService, service, subscribe, vapid

__all__ = ["service", "vapid"]

pytestmark = pytest.mark.django_db

PUBLIC = "93.184.215.14"  # a documentation-free public address; never contacted here


class Dns:
    """Stands in for the resolver: each name resolves as the test says."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.names: dict[str, list[str]] = {}
        real = socket.getaddrinfo

        def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
            if host not in self.names:
                return real(host, port, *args, **kwargs)
            family = {True: socket.AF_INET6, False: socket.AF_INET}
            return [
                (family[":" in a], socket.SOCK_STREAM, 6, "", (a, port)) for a in self.names[host]
            ]

        monkeypatch.setattr(endpoints.socket, "getaddrinfo", getaddrinfo)


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> Dns:
    return Dns(monkeypatch)


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1/push",
        "https://127.0.0.1:6379/push",  # Redis's port
        "https://169.254.169.254/latest/meta-data",  # the cloud's metadata address
        "https://10.1.2.3/push",
        "https://172.16.0.1/push",
        "https://192.168.1.1/push",
        "https://100.64.0.1/push",  # shared address space
        "https://0.0.0.0/push",
        "https://224.0.0.251/push",  # multicast
        "https://240.0.0.1/push",  # reserved
        "https://255.255.255.255/push",
        "https://[::1]/push",
        "https://[fe80::1]/push",
        "https://[fc00::1]/push",
        "https://[ff02::1]/push",
        "https://[::ffff:127.0.0.1]/push",  # IPv4-mapped IPv6
        "https://[::ffff:169.254.169.254]/push",
        "https://localhost/push",  # a name that resolves to loopback
        "https://internal.example/push",  # a name that resolves to a private address
        "https://mixed.example/push",  # one public address and one private
    ],
)
def test_a_push_address_off_the_public_internet_is_refused_and_nothing_stored(
    client: Client, alice: Any, vapid: str, dns: Dns, endpoint: str
) -> None:
    dns.names["internal.example"] = ["10.0.0.7"]
    dns.names["mixed.example"] = [PUBLIC, "fd00::7"]
    client.force_login(alice)
    response = subscribe(client, Device(endpoint))
    assert response.status_code == 400
    assert response.json()["error"] == "The push service's address is not on the public internet."
    assert not PushSubscription.objects.exists()


def test_plain_http_and_names_that_do_not_resolve_are_refused(
    client: Client, alice: Any, vapid: str, dns: Dns
) -> None:
    dns.names["push.example"] = [PUBLIC]
    client.force_login(alice)
    plain = subscribe(client, Device("http://push.example/push"))
    assert plain.json()["error"] == "The push service's address must start with https://."
    nowhere = subscribe(client, Device("https://nowhere.invalid/push"))
    assert nowhere.json()["error"] == "The push service's address does not resolve."
    assert subscribe(client, Device("https://push.example/push")).status_code == 201


def test_the_local_push_service_is_allowed_only_by_the_test_setting(
    client: Client, alice: Any, vapid: str, service: str, settings: Any
) -> None:
    client.force_login(alice)
    assert subscribe(client, Device(f"{service}/push/phone")).status_code == 201
    # Another port, or https, on the same loopback address is not that origin.
    other = service.rsplit(":", 1)[0] + ":6379"
    assert subscribe(client, Device(f"{other}/push")).status_code == 400
    settings.PUSH_LOCAL_ENDPOINTS = []
    refused = subscribe(client, Device(f"{service}/push/tablet"))
    assert refused.status_code == 400
    assert PushSubscription.objects.count() == 1


def test_a_name_that_resolves_elsewhere_by_the_send_gets_no_push(
    client: Client, alice: Any, vapid: str, dns: Dns, service: str, caplog: Any
) -> None:
    dns.names["push.example"] = [PUBLIC]
    client.force_login(alice)
    assert subscribe(client, Device("https://push.example/push")).status_code == 201
    dns.names["push.example"] = ["127.0.0.1"]  # rebound to loopback since
    assert push.send(alice.pk, "t", "b", "/") == 0
    assert "is not on the public internet" in caplog.text
    assert PushService.received == []
    assert PushSubscription.objects.filter(user=alice).exists()  # kept: it may come back


def test_a_send_connects_to_the_address_it_checked_not_a_fresh_lookup(
    service: str,
) -> None:
    port = int(service.rsplit(":", 1)[1])
    # "push.example" resolves nowhere: only the pinned address can be reached.
    target = endpoints.Target("push.example", port, "127.0.0.1")
    with endpoints.pinned_session(target) as session:
        answer = session.post(f"http://push.example:{port}/push/pinned", data=b"x", timeout=5)
    assert answer.status_code == 201
    ((path, headers, body),) = PushService.received
    assert path == "/push/pinned" and headers["host"] == f"push.example:{port}" and body == b"x"


def test_public_addresses_pass_and_the_others_do_not() -> None:
    assert endpoints.is_public(PUBLIC) and endpoints.is_public("2606:4700::1111")
    assert endpoints.is_public("64:ff9b::5db8:d70e")  # NAT64 of a public address
    for address in (
        "127.0.0.2", "::ffff:10.0.0.1", "fe80::1%eth0", "233.252.0.1", "::", "64:ff9b::a9fe:a9fe",
    ):  # fmt: skip
        assert not endpoints.is_public(address), address


def test_another_account_cannot_take_a_subscription_over(
    client: Client, alice: Any, bob: Any, vapid: str, service: str
) -> None:
    phone = Device(f"{service}/push/phone")
    client.force_login(alice)
    assert subscribe(client, phone).status_code == 201
    mine = PushSubscription.objects.get()
    # Bob learnt the endpoint and posts it with keys of his own.
    client.force_login(bob)
    thief = Device(f"{service}/push/phone")
    refused = subscribe(client, thief)
    assert refused.status_code == 400
    assert "registered to another account" in refused.json()["error"]
    row = PushSubscription.objects.get()
    assert (row.user, row.p256dh, row.auth) == (alice, mine.p256dh, mine.auth)
    # Alice's own device renewing its keys is no takeover.
    client.force_login(alice)
    renewed = Device(f"{service}/push/phone")
    assert subscribe(client, renewed).status_code == 201
    assert PushSubscription.objects.get().p256dh == renewed.json["keys"]["p256dh"]
    assert push.send(alice.pk, "t", "b", "/") == 1 and push.send(bob.pk, "t", "b", "/") == 0
