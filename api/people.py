"""The token's own follows and blocks: ``/me/following`` and ``/me/blocks``.
The same services as the profile's buttons (``people.services``), each
write idempotent: a second PUT or DELETE changes nothing and answers the same."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from django.http import HttpRequest
from ninja import Field, Path, Router, Schema
from ninja.responses import Status

from accounts.models import User
from api.auth import need
from api.models import SCOPE_PLAY, SCOPE_READ
from api.openapi import USERNAME, Body
from api.problems import ERRORS, Problem, ProblemOut
from people import services
from people.errors import PeopleError
from people.models import Block, Follow

router = Router(tags=["people"])

Username: Any = Path(..., pattern=USERNAME, description="The other person's username.")  # type: ignore[type-arg]


class FollowOut(Schema):
    username: str = Field(description="The username of someone you follow.")
    name: str = Field(description="The name the site shows.")
    bell: bool = Field(description="You are told (once a day at most) when they start a game.")
    friend: bool = Field(description="They follow you too.")


class FollowingOut(Schema):
    following: list[FollowOut] = Field(description="Everyone you follow, friends first.")


class FollowIn(Body):
    bell: bool | None = Field(
        None, description="Tell me when they start a game (true/false); left as it is if absent."
    )


class BlockOut(Schema):
    username: str = Field(description="The username of someone you blocked.")


class BlocksOut(Schema):
    blocks: list[BlockOut] = Field(description="Everyone you blocked (they are never told).")


def _person(username: str) -> User:
    player: User | None = User.objects.filter(username=username, is_active=True).first()
    if player is None:
        raise Problem(404, "There is no such player.")
    return player


def _entries(user: Any, only: int | None = None) -> list[dict[str, Any]]:
    rows = (
        Follow.objects.filter(follower_id=user.pk, followed__is_active=True)
        .select_related("followed")
        .annotate(
            friend=Exists(
                Follow.objects.filter(follower_id=OuterRef("followed_id"), followed_id=user.pk)
            )
        )
    )
    if only is not None:
        rows = rows.filter(followed_id=only)
    out: list[dict[str, Any]] = [
        {
            "username": r.followed.username,
            "name": r.followed.public_name,
            "bell": r.bell,
            "friend": bool(r.friend),
        }
        for r in rows
    ]
    out.sort(key=lambda e: (not e["friend"], e["username"].lower()))
    return out


def _do(call: Any, *args: Any, **kwargs: Any) -> None:
    try:
        call(*args, **kwargs)
    except PeopleError as exc:
        raise Problem(exc.status, exc.message) from None


@router.get("/me/following", response={200: FollowingOut, **ERRORS}, summary="Who you follow")
def following(request: HttpRequest) -> dict[str, Any]:
    """With each person's bell and whether you are friends (they follow you too)."""
    return {"following": _entries(need(request, SCOPE_READ))}


@router.put(
    "/me/following/{username}",
    response={200: FollowOut, 409: ProblemOut, **ERRORS},
    summary="Follow someone",
)
def follow(
    request: HttpRequest,
    username: str = Username,
    body: FollowIn | None = None,
) -> dict[str, Any]:
    """Follow ``username`` (no consent needed), and set the bell if ``bell`` is given."""
    user = need(request, SCOPE_PLAY)
    player = _person(username)
    _do(services.do_follow, user, player)
    if body is not None and body.bell is not None:
        _do(services.do_set_bell, user, player, on=body.bell)
    return _entries(user, only=player.pk)[0]


@router.delete(
    "/me/following/{username}",
    response={204: None, 409: ProblemOut, **ERRORS},
    summary="Unfollow someone",
)
def unfollow(request: HttpRequest, username: str = Username) -> Status[None]:
    user = need(request, SCOPE_PLAY)
    _do(services.do_unfollow, user, _person(username))
    return Status(204, None)


@router.get("/me/blocks", response={200: BlocksOut, **ERRORS}, summary="Who you blocked")
def blocks(request: HttpRequest) -> dict[str, Any]:
    user = need(request, SCOPE_READ)
    names = (
        Block.objects.filter(blocker_id=user.pk, blocked__is_active=True)
        .order_by("blocked__username")
        .values_list("blocked__username", flat=True)
    )
    return {"blocks": [{"username": name} for name in names]}


@router.put(
    "/me/blocks/{username}",
    response={204: None, 409: ProblemOut, **ERRORS},
    summary="Block someone",
)
def block(request: HttpRequest, username: str = Username) -> Status[None]:
    """They can no longer challenge you, message you or join a game you host,
    and their chat is hidden from you. You stop following them. They are not told."""
    user = need(request, SCOPE_PLAY)
    _do(services.do_block, user, _person(username))
    return Status(204, None)


@router.delete(
    "/me/blocks/{username}",
    response={204: None, 409: ProblemOut, **ERRORS},
    summary="Unblock someone",
)
def unblock(request: HttpRequest, username: str = Username) -> Status[None]:
    user = need(request, SCOPE_PLAY)
    _do(services.do_unblock, user, _person(username))
    return Status(204, None)
