"""The site's allauth adapter: its login limits (``accounts.login_limits``),
and usernames under the rule for names (``accounts.names``)."""

from __future__ import annotations

from allauth.account.views import SignupView as AllauthSignupView
from django import forms
from django.http import HttpResponse

from accounts import claims, names
from accounts.login_limits import AccountAdapter as LimitedAdapter


class AccountAdapter(LimitedAdapter):
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
