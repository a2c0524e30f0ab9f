"""The settings page's API token section: make a token (shown once, on the
page this POST answers, never stored in the session) and revoke one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from api import tokens
from api.forms import TokenForm


@login_required
@require_POST
def create_token(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST, user=request.user)
    if not form.is_valid():
        errors = form.errors.get("scopes") or ["Choose at least one scope for the token."]
        messages.error(request, str(errors[0]))
        return redirect("settings")
    try:
        row, token = tokens.issue(
            request.user, scopes=form.cleaned_data["scopes"], name=form.cleaned_data["name"]
        )
    except tokens.TokenError as exc:  # the cap on tokens per account
        messages.error(request, exc.message)
        return redirect("settings")
    response = render(request, "api/token_created.html", {"row": row, "token": token})
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    if tokens.revoke(request.user, token_id):
        messages.success(request, "Token revoked: it no longer works.")
    else:
        messages.error(request, "That token was already revoked.")
    return redirect("settings")
