"""The site's allauth adapter: its login limits (``accounts.login_limits``),
usernames under the rule for names (``accounts.names``), and sign-ups that
do not tell whether an address has an account."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from allauth.account.views import SignupView as AllauthSignupView
from django import forms
from django.contrib.auth import get_user_model
from django.http import HttpResponse

from accounts import claims, names
from accounts.login_limits import AccountAdapter as LimitedAdapter


class AccountAdapter(LimitedAdapter):
    def send_confirmation_mail(self, request: Any, emailconfirmation: Any, signup: bool) -> None:
        """A sign-up (or a new address) with an address that another account
        already holds is answered as any other (``ACCOUNT_PREVENT_ENUMERATION``,
        settings), but the address's owner is told that an account exists
        instead of being sent a link that would give it to the newcomer."""
        address = emailconfirmation.email_address
        if held_elsewhere(address.email, address.user_id):
            self.send_account_already_exists_mail(address.email)
            return
        super().send_confirmation_mail(request, emailconfirmation, signup)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # The reserved words and "already taken" read the normalised name,
        # so a full-width "bot" is "bot" and a full-width "Alice" is Alice's; the reasons say so.
        # Shallow (allauth making up a username): no database.
        if shallow:
            problem = names.text_problem(username) or names.mixed_problem(username)
            if problem is not None:
                raise forms.ValidationError(problem)
        else:
            claims.check_name(None, "username", username)
        return str(super().clean_username(username, shallow=shallow))


def held_elsewhere(email: str, user_pk: int) -> bool:
    """Whether an account other than ``user_pk`` has ``email``, as its
    address or among its allauth addresses."""
    users = get_user_model().objects.exclude(pk=user_pk)
    if users.filter(email__iexact=email).exists():
        return True
    others = EmailAddress.objects.exclude(user_id=user_pk)
    return bool(others.filter(email__iexact=email).exists())


class SignupView(AllauthSignupView):  # type: ignore[misc]
    """allauth's sign-up, which tells the loser of two sign-ups racing for
    names that look alike why, instead of failing."""

    def form_valid(self, form: forms.Form) -> HttpResponse:
        try:
            response: HttpResponse = super().form_valid(form)
        except claims.NameTaken as exc:
            form.add_error("username" if exc.field == "username" else None, exc.message)
            invalid: HttpResponse = self.form_invalid(form)
            return invalid
        return response
