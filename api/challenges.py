"""Challenges through the API: a host challenges a person or bot account to
their game; the challenged side sees it on ``GET /challenges`` and on its
events stream, and accepts or declines; the host may withdraw it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Path, Router, Schema
from ninja.responses import Status

from api import limits
from api.auth import need, visible
from api.models import SCOPE_PLAY, SCOPE_READ
from api.openapi import USERNAME, Body
from api.problems import ERRORS, Problem, ProblemOut, game_problem
from games import services
from games.models import Challenge

router = Router(tags=["challenges"])
PUBLIC_ID = r"^[A-Za-z0-9]{1,16}$"

ChallengeId = Path(  # type: ignore[type-arg]
    ..., pattern=PUBLIC_ID, description="The challenge's id."
)
GameId = Path(..., pattern=PUBLIC_ID, description="The game's public id.")  # type: ignore[type-arg]


class ChallengeIn(Body):
    username: str = Field(
        pattern=USERNAME, description="Who is challenged: a person or bot account."
    )


class ChallengeOut(Schema):
    id: str = Field(description="The challenge's id.")
    game: str = Field(description="The game's public id.")
    challenger: str = Field(description="The host who challenged.")
    challenged: str = Field(description="The person or bot account challenged.")
    status: str = Field(description="pending, accepted, declined or cancelled (withdrawn).")
    preset: str
    seats: int
    turn_seconds: int
    bot_speed: str = Field(description="paced or instant: how the game's site bots move.")
    created_at: str


class ChallengesOut(Schema):
    incoming: list[ChallengeOut] = Field(description="Waiting for your answer.")
    outgoing: list[ChallengeOut] = Field(description="Yours, waiting for theirs.")


def entry(made: Challenge) -> dict[str, Any]:
    game = made.game
    return {
        "id": made.public_id,
        "game": game.public_id,
        "challenger": made.challenger.username,
        "challenged": made.challenged.username,
        "status": made.status,
        "preset": game.preset,
        "seats": game.max_seats,
        "turn_seconds": game.turn_seconds,
        "bot_speed": game.bot_speed,
        "created_at": made.created_at.isoformat(),
    }


@router.get("/challenges", response={200: ChallengesOut, **ERRORS}, summary="Open challenges")
def challenges(request: HttpRequest) -> dict[str, Any]:
    """The open challenges you received and sent (a challenge lapses when
    its game starts)."""
    user = need(request, SCOPE_READ)
    rows = services.open_challenges().order_by("created_at")
    return {
        "incoming": [entry(c) for c in rows.filter(challenged=user)],
        "outgoing": [entry(c) for c in rows.filter(challenger=user)],
    }


@router.post(
    "/games/{game_id}/challenges",
    response={201: ChallengeOut, 409: ProblemOut, **ERRORS},
    summary="Challenge someone to your game",
)
def challenge(
    request: HttpRequest,
    body: ChallengeIn,
    game_id: str = GameId,
) -> Status[dict[str, Any]]:
    """As the game's host, while it is in the lobby. A bot account can be
    challenged to a game that allows bot accounts."""
    user = need(request, SCOPE_PLAY)
    limits.count_person(request, "challenge")  # with the page's challenges
    visible(game_id, user)  # another's private game is not found
    try:
        made = services.challenge_player(public_id=game_id, user=user, username=body.username)
    except services.GameError as exc:
        raise game_problem(exc) from None
    return Status(201, entry(made))


def _answer(
    request: HttpRequest, challenge_id: str, how: Any, scope: str | None = None
) -> dict[str, Any]:
    user = need(request, SCOPE_PLAY)
    if scope is not None:
        limits.count_person(request, scope)
    try:
        how(challenge_id=challenge_id, user=user)
    except services.GameNotFound:
        raise Problem(404, "There is no such challenge.") from None
    except services.GameError as exc:
        raise game_problem(exc) from None
    made = Challenge.objects.select_related("game", "challenger", "challenged")
    return entry(made.get(public_id=challenge_id))


@router.post(
    "/challenges/{challenge_id}/accept",
    response={200: ChallengeOut, 409: ProblemOut, **ERRORS},
    summary="Accept a challenge",
)
def accept(request: HttpRequest, challenge_id: str = ChallengeId) -> dict[str, Any]:
    """Take the seat you were challenged to (the game's own checks apply:
    a full game, your open-games cap)."""
    return _answer(request, challenge_id, services.accept_challenge, "join")  # a seat taken


@router.post(
    "/challenges/{challenge_id}/decline",
    response={200: ChallengeOut, 409: ProblemOut, **ERRORS},
    summary="Decline a challenge",
)
def decline(request: HttpRequest, challenge_id: str = ChallengeId) -> dict[str, Any]:
    return _answer(request, challenge_id, services.decline_challenge)


@router.post(
    "/challenges/{challenge_id}/withdraw",
    response={200: ChallengeOut, 409: ProblemOut, **ERRORS},
    summary="Withdraw your challenge",
)
def withdraw(request: HttpRequest, challenge_id: str = ChallengeId) -> dict[str, Any]:
    return _answer(request, challenge_id, services.withdraw_challenge)
