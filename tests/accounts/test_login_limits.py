"""Failed logins are limited per account from one address, per account from
anywhere and per address, on the site's login and the admin's alike; a
stranger failing cannot lock the owner out everywhere."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from common.env import env_rates
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

TOO_MANY = "Too many failed login attempts"


def limit(settings: Any, rates: str) -> None:
    parsed = env_rates("TEST", rates, {"pair", "account", "ip"}, environ={})
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login_failed": parsed}


def log_in(login: str, password: str, ip: str = "10.0.0.1") -> tuple[Client, Any]:
    client = Client(REMOTE_ADDR=ip)
    return client, client.post("/accounts/login/", {"login": login, "password": password})


def logged_in(client: Client) -> bool:
    return bool(client.get("/lobby/").context["user"].is_authenticated)


def admin_log_in(username: str, password: str, ip: str = "10.0.0.1") -> tuple[Client, Any]:
    client = Client(REMOTE_ADDR=ip)
    data = {"username": username, "password": password, "next": "/admin/"}
    return client, client.post("/admin/login/?next=/admin/", data)


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("root", "root@example.com", PASSWORD, is_staff=True)


def test_the_sixth_wrong_password_from_one_address_is_refused(alice: User) -> None:
    for _ in range(5):
        _, response = log_in("alice", "wrong-password")
        assert response.status_code == 200 and TOO_MANY not in response.content.decode()
    client, response = log_in("alice", PASSWORD)
    assert TOO_MANY in response.content.decode()
    assert not logged_in(client)


def test_the_owner_still_logs_in_from_another_address(alice: User) -> None:
    for _ in range(6):
        log_in("alice", "wrong-password", ip="203.0.113.7")
    client, response = log_in("alice", PASSWORD, ip="198.51.100.2")
    assert response.status_code == 302
    assert logged_in(client)


def test_the_username_and_the_email_share_one_count(alice: User) -> None:
    for login in ("alice", "ALICE@example.com", "alice", "alice@example.com", "Alice"):
        log_in(login, "wrong-password")
    _, response = log_in("alice@example.com", PASSWORD)
    assert TOO_MANY in response.content.decode()


def test_right_passwords_are_not_counted(alice: User) -> None:
    for _ in range(8):
        _, response = log_in("alice", PASSWORD)
        assert response.status_code == 302
    for _ in range(4):
        log_in("alice", "wrong-password")
    client, _ = log_in("alice", PASSWORD)
    assert logged_in(client)


def test_the_account_ceiling_holds_across_addresses(settings: Any, alice: User) -> None:
    limit(settings, "5/5m/pair,4/1h/account,30/10m/ip")
    for n in range(4):
        log_in("alice", "wrong-password", ip=f"203.0.113.{n}")
    client, response = log_in("alice", PASSWORD, ip="198.51.100.2")
    assert TOO_MANY in response.content.decode()
    assert not logged_in(client)


def test_the_address_limit_holds_across_accounts(settings: Any, alice: User, bob: User) -> None:
    limit(settings, "5/5m/pair,50/1h/account,3/10m/ip")
    for login in ("alice", "bob", "nobody"):
        log_in(login, "wrong-password")
    _, response = log_in("bob", PASSWORD)
    assert TOO_MANY in response.content.decode()
    client, _ = log_in("bob", PASSWORD, ip="10.0.0.2")
    assert logged_in(client)


def test_the_admin_login_is_limited_too(staff: User) -> None:
    for _ in range(5):
        _, response = admin_log_in("root", "wrong-password")
        assert response.status_code == 200 and TOO_MANY not in response.content.decode()
    _, response = admin_log_in("root", PASSWORD)
    assert response.status_code == 200
    assert TOO_MANY in response.content.decode()
    _, response = admin_log_in("root", PASSWORD, ip="10.0.0.2")
    assert response.status_code == 302 and response["Location"] == "/admin/"


def test_the_admin_and_the_site_share_one_count(staff: User) -> None:
    for _ in range(5):
        admin_log_in("root", "wrong-password")
    _, response = log_in("root", PASSWORD)
    assert TOO_MANY in response.content.decode()


def test_a_right_password_without_staff_rights_is_not_counted(alice: User) -> None:
    for _ in range(6):
        _, response = admin_log_in("alice", PASSWORD)
        assert TOO_MANY not in response.content.decode()
    client, _ = log_in("alice", PASSWORD)
    assert logged_in(client)
