from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_signup_creates_user_with_username_and_email_and_logs_in(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "carol",
            "email": "carol@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="carol")
    assert user.email == "carol@example.com"
    assert client.get("/lobby/").context["user"] == user


def test_signup_requires_email(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "dave", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="dave").exists()


def test_signup_rejects_taken_username(client: Client, alice: User) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "alice",
            "email": "x@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert User.objects.filter(username="alice").count() == 1


def test_login_with_username_redirects_to_lobby(client: Client, alice: User) -> None:
    response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/lobby/"
    assert client.get("/lobby/").context["user"] == alice


def test_login_rejects_wrong_password(client: Client, alice: User) -> None:
    response = client.post("/accounts/login/", {"login": "alice", "password": "wrong-password"})
    assert response.status_code == 200
    assert not client.get("/lobby/").context["user"].is_authenticated


def test_login_is_rate_limited_after_repeated_failures(client: Client, alice: User) -> None:
    for _ in range(5):
        client.post("/accounts/login/", {"login": "alice", "password": "wrong-password"})
    # Even the right password is refused until the limit window passes.
    response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response.status_code in {200, 429}
    assert not client.get("/lobby/").context["user"].is_authenticated
    assert b"Too many failed login attempts" in response.content or response.status_code == 429


def test_logout_ends_the_session(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert not client.get("/lobby/").context["user"].is_authenticated


def test_password_reset_sends_mail_with_working_link(client: Client, alice: User) -> None:
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    new_password = "a-brand-new-password-77"
    done = client.post(
        form_page.redirect_chain[-1][0] if form_page.redirect_chain else link.group(1),
        {"password1": new_password, "password2": new_password},
    )
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new_password)


def test_password_change_requires_old_password(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": "not-it", "password1": "x-new-pass-991", "password2": "x-new-pass-991"},
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "x-new-pass-991", "password2": "x-new-pass-991"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("x-new-pass-991")
