"""Challenges: a game's host invites one person, or someone's bot account,
to take a seat (as on Lichess). The invited person accepts, and is seated
as if they had the invite link, or declines; the host may withdraw. A
challenge lapses when its game leaves the lobby: it is then neither shown
nor answerable. Each side hears of it through a notice (and so on an API
events stream)."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils import timezone

from games.bot_accounts import seating_refusal
from games.deadlines import describe_left
from games.models import Challenge, Game, Seat
from games.services import seating
from games.services.errors import (
    GameNotFound,
    NoSuchPlayer,
    NotAllowed,
    StateConflict,
)
from games.services.lobby import _lobby_game, _require_host, join_game
from games.services.subscribers import announce
from games.services.write import Committed, Notice, game_transaction
from games.switches import PRESET_LABELS

CHALLENGE = "challenge"
ANSWERED = "challenge_answered"
# Each challenge puts a notice before someone: a host may have this many
# waiting for an answer at once.
MAX_OPEN_CHALLENGES = 20


def open_challenges() -> QuerySet[Challenge]:
    """Pending challenges whose game is still in the lobby."""
    return Challenge.objects.filter(
        status=Challenge.Status.PENDING, game__status=Game.Status.LOBBY
    ).select_related("game", "challenger", "challenged")


def challenge_player(*, public_id: str, user: Any, username: str) -> Challenge:
    """The host of a game in the lobby challenges ``username`` to it."""
    with game_transaction():
        game = _lobby_game(public_id)
        _require_host(game, user)
        target = (
            get_user_model()
            .objects.filter(username__iexact=username.strip(), is_active=True)
            .first()
        )
        if target is None:
            raise NoSuchPlayer(f"No player is called {username.strip()!r}.")
        if target.pk == user.pk:
            raise StateConflict("You cannot challenge yourself.")
        seating.check_may_challenge(user, target)
        check_seatable(game, target)
        if open_challenges().filter(game=game, challenged=target).exists():
            raise StateConflict(f"{target.username} has already been challenged to this game.")
        if open_challenges().filter(challenger=user).count() >= MAX_OPEN_CHALLENGES:
            raise StateConflict(
                f"You have {MAX_OPEN_CHALLENGES} challenges waiting for an answer: "
                "withdraw some before sending more."
            )
        made = Challenge.objects.create(game=game, challenger=user, challenged=target)
        text = f"{user.username} challenges you to a game: {describe(game)}."
        announce(Committed(game, game.version, notices=[_notice(target.pk, CHALLENGE, text, made)]))
    return made


def check_seatable(game: Game, user: Any) -> None:
    seats = list(game.seats.select_related("user"))
    if any(s.user_id == user.pk for s in seats):
        raise StateConflict(f"{user.username} already has a seat in this game.")
    if len(seats) >= game.max_seats:
        raise StateConflict("This game is full.")
    refusal = seating_refusal(game, [s.user for s in seats if s.user is not None], user)
    if refusal:
        raise NotAllowed(f"{user.username} cannot take a seat here: {refusal}")


def accept_challenge(*, challenge_id: str, user: Any, seed: str | None = None) -> Seat:
    """Seat the challenged person (with the game's own checks: a full game,
    their open-games cap, bot-account rules), with their dice ``seed``."""
    with game_transaction():
        made = _answerable(challenge_id, user)
        seat = join_game(
            public_id=made.game.public_id,
            user=user,
            invite_token=made.game.invite_token,
            seed=seed,
            # Accepting is the confirmation: the challenge named the game.
            confirm_blocked=True,
        )
        _answer(made, Challenge.Status.ACCEPTED, f"{user.username} accepted your challenge")
    return seat


def decline_challenge(*, challenge_id: str, user: Any) -> Challenge:
    with game_transaction():
        made = _answerable(challenge_id, user)
        _answer(made, Challenge.Status.DECLINED, f"{user.username} declined your challenge")
    return made


def withdraw_challenge(*, challenge_id: str, user: Any) -> Challenge:
    """The challenger takes it back."""
    with game_transaction():
        made = _locked(challenge_id, user, as_challenger=True)
        _check_pending(made)
        _answer(made, Challenge.Status.CANCELLED, None, retract=True)
    return made


def _locked(challenge_id: str, user: Any, *, as_challenger: bool = False) -> Challenge:
    """The challenge, locked, if ``user`` is its challenged (or challenger)
    side; anyone else is told there is no such challenge."""
    side = {"challenger": user} if as_challenger else {"challenged": user}
    made = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("game", "challenger", "challenged")
        .filter(public_id=challenge_id, **side)
        .first()
        if getattr(user, "is_authenticated", False)
        else None
    )
    if made is None:
        raise GameNotFound("There is no such challenge.")
    return made


def _check_pending(made: Challenge) -> None:
    if made.status != Challenge.Status.PENDING:
        raise StateConflict(f"This challenge was already {made.get_status_display().lower()}.")
    if made.game.status != Game.Status.LOBBY:
        raise StateConflict("This challenge has lapsed: its game has already started.")


def _answerable(challenge_id: str, user: Any) -> Challenge:
    made = _locked(challenge_id, user)
    _check_pending(made)  # joining locks the game and checks it again
    return made


def _answer(made: Challenge, status: str, text: str | None, *, retract: bool = False) -> None:
    """Record the answer; ``text``, if any, is the challenger's notice of it.
    ``retract``: the challenged person's notice goes, once committed (a
    withdrawn challenge leaves nothing unread behind)."""
    made.status = status
    made.answered_at = timezone.now()
    made.save(update_fields=["status", "answered_at"])
    told = f"{text} to game {made.game.public_id}." if text else None
    notes = [_notice(made.challenger_id, ANSWERED, told, made)] if told else []
    taken_back = [(made.challenged_id, f"{CHALLENGE}:{made.public_id}")] if retract else []
    announce(Committed(made.game, made.game.version, notices=notes, retracted=taken_back))


def _notice(user_id: int, kind: str, text: str, made: Challenge) -> Notice:
    # The challenge's page: the challenged may not be able to see a private game's.
    url = f"/challenges/{made.public_id}/"
    due = functools.partial(still_pending, made.pk) if kind == CHALLENGE else None
    return Notice(
        user_id, kind, text, dedupe_key=f"{kind}:{made.public_id}", url=url, still_due=due
    )


def still_pending(challenge_pk: int) -> bool:
    """Whether the challenge is still waiting for an answer, its row locked
    until the caller's transaction ends: a withdrawal committed first is
    seen, and one that comes later waits (and then retracts the notice)."""
    rows = Challenge.objects.select_for_update().filter(
        pk=challenge_pk, status=Challenge.Status.PENDING
    )
    return bool(list(rows.values_list("pk", flat=True)))


def describe(game: Game) -> str:
    """ "US 2003, 2 seats, 1h 00m per move" for a challenge's notice."""
    rules = PRESET_LABELS.get(game.preset, game.preset)
    return f"{rules}, {game.max_seats} seats, {describe_left(game.turn_seconds)} per move"
