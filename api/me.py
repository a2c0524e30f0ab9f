"""The token's own account: its profile, and the switch to a bot account
(the settings page's, with the same rule: only between games)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Router

from accounts.bot import BotAccountError, set_bot_account
from api.auth import granted, need
from api.models import SCOPE_PLAY, SCOPE_READ, ApiToken
from api.openapi import Body
from api.problems import ERRORS, Problem, ProblemOut
from api.records import ProfileOut, profile_of

router = Router(tags=["you"])


class MeOut(ProfileOut):
    scopes: list[str] = Field(description="What this token may do now (read, play, bot).")


class MeIn(Body):
    bot_account: bool = Field(
        description="Make the account a bot account (true) or a person's again (false). "
        "Only between games. A bot account then plays with a token of the bot scope: "
        "this token's play scope stops letting it play."
    )


def _me(request: HttpRequest, user: Any) -> dict[str, Any]:
    token: ApiToken = request.auth  # type: ignore[attr-defined]
    return {**profile_of(user, user), "scopes": sorted(granted(token.scopes, user))}


@router.get("/me", response={200: MeOut, **ERRORS}, summary="Your account")
def me(request: HttpRequest) -> dict[str, Any]:
    return _me(request, need(request, SCOPE_READ))


@router.patch("/me", response={200: MeOut, 409: ProblemOut, **ERRORS}, summary="Set bot account")
def set_me(request: HttpRequest, body: MeIn) -> dict[str, Any]:
    """Switch the bot account flag, as the settings page does (409 while
    the account is in open games)."""
    user = need(request, SCOPE_PLAY)
    try:
        set_bot_account(user, body.bot_account)
    except BotAccountError as exc:
        raise Problem(409, exc.message, slug="in-open-games") from None
    return _me(request, user)
