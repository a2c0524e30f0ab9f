"""Sign-up and password reset do not tell whether an email address has an
account (issue 32, allauth's enumeration prevention): the answer to a taken
address is the answer to a fresh one, and the address's owner is mailed
instead of being sent a link that would hand it to the newcomer."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.core.context import request_context
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client, RequestFactory

from accounts.models import User
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def sign_up(username: str, email: str) -> tuple[Any, list[str]]:
    """The sign-up's answer, and the messages it leaves for the next page
    (with the address written ADDRESS and the name NAME)."""
    client = Client()
    fields = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", fields)
    said = [
        str(m).replace(email.lower(), "ADDRESS").replace(username, "NAME")
        for m in get_messages(response.wsgi_request)
    ]
    return response, said


def sent_to(address: str) -> list[Any]:
    return [m for m in mail.outbox if address in m.to]


@pytest.mark.parametrize("verification", ["optional", "mandatory"])
def test_signing_up_with_a_registered_address_answers_as_a_fresh_one(
    settings: Any, alice: User, verification: str
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = verification
    settings.ACCOUNT_PREVENT_ENUMERATION = True if verification == "mandatory" else "strict"
    fresh, fresh_said = sign_up("carol", "carol@example.com")
    taken, taken_said = sign_up("dave", "Alice@Example.com")
    assert (taken.status_code, taken["Location"]) == (fresh.status_code, fresh["Location"])
    assert taken_said == fresh_said
    # The newcomer got a confirmation link; the owner was told an account exists.
    [to_carol] = sent_to("carol@example.com")
    assert "/accounts/confirm-email/" in to_carol.body
    to_alice = sent_to("alice@example.com")
    assert len(to_alice) == 1
    assert "already exists" in to_alice[0].body
    assert "/accounts/confirm-email/" not in to_alice[0].body
    # Alice's own account and address are untouched, and she still signs in by it.
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    login = Client().post("/accounts/login/", {"login": "alice@example.com", "password": PASSWORD})
    assert login.status_code == 302


def test_the_newcomer_on_a_taken_address_never_gets_it_verified(settings: Any, alice: User) -> None:
    sign_up("dave", "alice@example.com")
    dave = User.objects.get(username="dave")
    assert not dave.emailaddress_set.filter(verified=True).exists()  # type: ignore[attr-defined]
    # Asking again for a confirmation sends the owner the same warning, no link.
    mail.outbox.clear()
    request = RequestFactory().get("/accounts/email/")
    request.user = dave
    with request_context(request):
        dave.emailaddress_set.get().send_confirmation(request)  # type: ignore[attr-defined]
    [again] = sent_to("alice@example.com")
    assert "already exists" in again.body and "/accounts/confirm-email/" not in again.body


def test_password_reset_answers_the_same_for_any_address(alice: User) -> None:
    known = Client().post("/accounts/password/reset/", {"email": "alice@example.com"})
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    [to_alice] = sent_to("alice@example.com")
    assert "/accounts/password/reset/key/" in to_alice.body
    assert all("/accounts/password/reset/key/" not in m.body for m in sent_to("nobody@example.com"))
