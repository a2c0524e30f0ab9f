"""Limits on failed logins, for the site's login (allauth) and the admin's.

Failures are counted per account from one address (a guesser is stopped
after a few tries), per account from anywhere (a slow ceiling, so a botnet
cannot guess for ever, yet a stranger cannot lock the owner out for long),
and per address (one machine trying many accounts): ``RATE_LIMITS
["login_failed"]``. While any is full, even the right password is refused,
or guessing could go on and only the hit would get through.
"""

from __future__ import annotations

import contextlib
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.db.models import Q
from django.http import HttpRequest

from accounts.models import User
from common import ratelimit

SCOPE = "login_failed"


def account_key(login: str) -> str:
    """The account a typed login names, so that its username and its email
    share one count; a login naming nobody is counted as typed."""
    login = (login or "").strip()
    pk = (
        User.objects.filter(Q(username__iexact=login) | Q(email__iexact=login))
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    return f"user:{pk}" if pk is not None else f"login:{login.lower()}"


def check_login(request: HttpRequest, login: str) -> None:
    """``RateLimited`` while this login may not be tried from here."""
    ratelimit.check(request, SCOPE, account=account_key(login))


def record_failure(request: HttpRequest, login: str) -> None:
    # Over the limit already: the next attempt is the one refused.
    with contextlib.suppress(ratelimit.RateLimited):
        ratelimit.hit(request, SCOPE, account=account_key(login))


def _typed_login(credentials: dict[str, Any]) -> str:
    return str(credentials.get("username") or credentials.get("email") or "")


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        try:
            check_login(request, _typed_login(credentials))
        except ratelimit.RateLimited:
            raise self.validation_error("too_many_login_attempts") from None
        super().pre_authenticate(request, **credentials)

    def authentication_failed(self, request: HttpRequest, **credentials: Any) -> None:
        record_failure(request, _typed_login(credentials))


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's login form (``admin.site.login_form``), under the same limits."""

    def clean(self) -> dict[str, Any]:
        login = self.cleaned_data.get("username") or ""
        if self.request is not None and login:
            try:
                check_login(self.request, login)
            except ratelimit.RateLimited as exc:
                raise forms.ValidationError(exc.message, code="too_many_attempts") from None
        try:
            return super().clean()
        except forms.ValidationError:
            # A wrong password, not a right one from someone who is not staff.
            if self.user_cache is None and self.request is not None and login:
                record_failure(self.request, login)
            raise
