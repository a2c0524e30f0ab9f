"""``/api/v1/``: the NinjaAPI, its endpoints and its error answers.

Thin endpoints: the token (``api.tokens``) says who asks, ``games.access``
says what they may see, ``games.services`` does every write, and
``api.reads`` shapes the answer. Services raise domain errors; they are
caught here and answered as RFC 9457 problem details (``api.problems``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, QueryDict
from ninja import Field, Header, Path, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.responses import Status
from ninja.security import HttpBearer

from api import (
    auth,
    board,
    challenges,
    chat,
    limits,
    me,
    messages,
    orders,
    people,
    reads,
    records,
    tournaments,
)
from api.action_schema import ActionBody
from api.create import CreateGameIn, create_kwargs
from api.models import SCOPE_PLAY, SCOPE_READ, ApiToken, IdempotentAnswer
from api.openapi import SEED, Body, DocumentedApi
from api.problems import ERRORS, Problem, ProblemOut, game_problem, problem
from games import action_kinds, engine, services
from games.models import Seat
from games.services.lobby import BOT_KINDS
from games.web.action_forms import FormError, parse_action
from games.web.lobby_rows import open_game_rows, your_game_rows

GAME_ID = r"^[A-Za-z0-9]{1,16}$"
IDEMPOTENCY_KEY = r"^[\x21-\x7e]{1,255}$"


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        # The token's budget is counted with the look-up (one round trip).
        row = limits.authenticate(request, token)
        if row is not None:
            request.user = row.user
        return row


api = DocumentedApi(
    title="Async Monopoly API",
    version="1",
    description=(
        "Play, watch and build on the site from code. Send a personal token as "
        "`Authorization: Bearer <token>`; make one on the settings page or with "
        "`python manage.py create_api_token USER`. Scopes: `read` for GETs, `play` for "
        "creating games and acting in them, `bot` (bot accounts only) for both. Errors are "
        "RFC 9457 problem details (`application/problem+json`). See docs/api.md."
    ),
    urls_namespace="api-v1",
    auth=TokenAuth(),
)


api.add_router("", records.router)
api.add_router("", orders.router)
api.add_router("", me.router)
api.add_router("", people.router)
api.add_router("", challenges.router)
api.add_router("", board.router)
api.add_router("", messages.router)
api.add_router("", chat.router)
api.add_router("", tournaments.router)


# --- errors -------------------------------------------------------------------------


@api.exception_handler(Problem)
def _problem(request: HttpRequest, exc: Problem) -> HttpResponse:
    return problem(exc.status, exc.detail, **exc.extra)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return problem(
        401,
        "Send a valid, unrevoked token as 'Authorization: Bearer <token>'.",
        headers={"WWW-Authenticate": 'Bearer realm="api"'},
    )


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = json.loads(json.dumps(exc.errors, default=str))
    detail = "The request does not match the schema."
    if errors:
        # The first field at fault, named as the client sent it (ninja's
        # locations start with where it was: body, query, path...).
        where = ".".join(str(part) for part in errors[0].get("loc", [])[2:])
        detail = f"{detail} {where}: {errors[0].get('msg', '')}" if where else detail
    return problem(422, detail, errors=errors)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    status = exc.status_code if 400 <= exc.status_code < 500 else 400
    return problem(status, str(exc.message))


_need = auth.need


_game_error = game_problem


# --- schemas ------------------------------------------------------------------------


class PlayerOut(Schema):
    seat: int = Field(description="Seat number (the engine's player index).")
    username: str | None = Field(description="The seated user; null for a site bot.")
    bot: str | None = Field(description="The site bot's kind, or null for a person.")
    bot_account: bool = Field(description="The seated user is a bot account (BOT badge).")
    status: str = Field(description="seated, playing, resigned, bankrupt, winner...")
    seeded: bool = Field(
        description="The seat gave a dice seed (always false for a site bot, which adds none)."
    )


class GameOut(Schema):
    id: str = Field(description="The game's public id, as in its page's URL.")
    status: str = Field(description="lobby, active or finished.")
    version: int = Field(description="Bumped by every move; send it back as expected_version.")
    preset: str = Field(description="The ruleset preset.")
    seats: int = Field(description="How many seats the game has.")
    turn_seconds: int = Field(description="The turn timer.")
    public: bool = Field(description="Listed among the open games and visible to all.")
    bot_speed: Literal["paced", "instant"] = Field(
        description="How the site bots move: paced (a second apart) or instant (within "
        "the move that hands them a decision, so that its answer is already your next "
        "decision; its version is then ahead of yours by more than one)."
    )
    host: str | None = Field(description="The host's username.")
    your_seat: int | None = Field(description="The token user's seat, or null for a spectator.")
    your_seed: str | None = Field(
        description="Before the start, your seat's dice seed (hex); null without one, for a "
        "spectator, and from the start: no seed leaves the server while the game runs, and "
        "the record has them all once it ends."
    )
    commitment: str | None = Field(
        description="SHA-256 (hex) of the site's secret, public from the game's creation, "
        "before any seed is given; null for games from before the keyed generator."
    )
    players: list[PlayerOut] = Field(description="The seats, in order.")
    state: dict[str, Any] | None = Field(
        description="The public state (null before the start): nothing that tells the future."
    )
    private: dict[str, Any] | None = Field(
        description="Your seat's private view (your sealed bid, your trade offers)."
    )
    decisions: list[dict[str, Any]] = Field(
        description="The pending decisions: player, kind, ref, blocking."
    )
    legal_actions: list[dict[str, Any]] = Field(
        description="Your legal actions, as the page offers them; post one back as it is."
    )
    deadlines: list[dict[str, Any]] = Field(description="When each pending decision times out.")


class BotIn(Body):
    kind: Literal[tuple(sorted(str(k) for k in BOT_KINDS))] = Field(  # type: ignore[valid-type]
        "heuristic", description="heuristic or random."
    )


SEED_DESCRIPTION = (
    "Your dice seed: 32 to 128 hex digits (16 to 64 bytes) that you drew yourself, e.g. "
    "secrets.token_hex(32). At the start the dice key is derived from the site's committed "
    "secret and every player's seed (docs/fair-dice.md). Without one your seat adds nothing."
)


class JoinIn(Body):
    invite_token: str | None = Field(None, description="A private game's invite token.")
    seed: str | None = Field(None, pattern=SEED, description=SEED_DESCRIPTION)
    confirm_blocked: bool = Field(
        False,
        description="Join although someone you blocked sits in the game "
        "(else a 409 problem, blocked-player-seated).",
    )


class SeedIn(Body):
    seed: str | None = Field(pattern=SEED, description=SEED_DESCRIPTION + ' null or "" removes it.')


class VersionIn(Body):
    expected_version: int | None = Field(None, ge=0, description="The version you acted on.")


class ActionIn(Body):
    action: ActionBody = Field(
        description="One entry of legal_actions, or a trade offer: one variant per action kind."
    )
    expected_version: int = Field(
        ge=0,
        description="The game version you acted on. An older one than the game's is "
        "accepted only for an action that still means the same now (a pass, ending the "
        "turn, a bid still above the high bid; docs/api.md); otherwise 409.",
    )


class ActionOut(Schema):
    version: int = Field(
        description="The game's version after your action, and after the standing orders "
        "and instant site bots that answered it in the same move (then more than one "
        "ahead: the stream has their versions' events)."
    )
    events: list[dict[str, Any]] = Field(description="What your action did, in order.")
    legal_actions: list[dict[str, Any]] = Field(description="Your legal actions now.")


class GameRowOut(Schema):
    id: str
    status: str
    version: int
    your_seat: int
    your_move: bool = Field(description="A decision of yours holds the game up.")
    waiting_on: str = Field(description="Whose decisions the game waits for.")


class OpenGameOut(Schema):
    id: str
    preset: str
    seats: int
    taken: int = Field(description="Seats taken so far.")
    turn_seconds: int
    host: str | None


GameId = Path(  # type: ignore[type-arg]
    ..., pattern=GAME_ID, description="The game's public id."
)


# --- helpers ------------------------------------------------------------------------


_visible = auth.visible


def _view(game_id: str, user: Any) -> dict[str, Any]:
    viewer, rows = auth.visible_rows(game_id, user)
    return reads.game_view(viewer.game, viewer.seat, rows.seats, rows.deadlines)


# --- games --------------------------------------------------------------------------


@api.post("/games", response={201: GameOut, 409: ProblemOut, **ERRORS}, summary="Create a game")
def create_game(request: HttpRequest, body: CreateGameIn) -> Status[dict[str, Any]]:  # type: ignore[valid-type]
    """Every setting of the lobby's create form, checked by that form."""
    user = _need(request, SCOPE_PLAY)
    limits.count_person(request, "create")  # the lobby's own count
    settings = create_kwargs(body)
    try:
        game = services.create_game(host=user, seed=getattr(body, "seed", None), **settings)
    except services.GameError as exc:
        raise _game_error(exc) from None
    return Status(201, _view(game.public_id, user))


@api.get("/games", response={200: list[GameRowOut], **ERRORS}, summary="Your games")
def my_games(request: HttpRequest) -> list[dict[str, Any]]:
    """Your games in the lobby or in play, waiting-on-you first."""
    user = _need(request, SCOPE_READ)
    return [
        {
            "id": row["game"].public_id,
            "status": reads.status_of(row["game"]),
            "version": row["game"].version,
            "your_seat": row["seat"].number,
            "your_move": row["your_move"],
            "waiting_on": row["waiting_on"],
        }
        for row in your_game_rows(user)
    ]


@api.get("/games/open", response={200: list[OpenGameOut], **ERRORS}, summary="Open games")
def open_games(request: HttpRequest) -> list[dict[str, Any]]:
    """Public games still in the lobby, newest first."""
    _need(request, SCOPE_READ)
    return [
        {
            "id": row["game"].public_id,
            "preset": row["game"].preset,
            "seats": row["game"].max_seats,
            "taken": row["game"].taken,
            "turn_seconds": row["game"].turn_seconds,
            "host": row["game"].host.username if row["game"].host else None,
        }
        for row in open_game_rows()
    ]


@api.get("/games/{game_id}", response={200: GameOut, **ERRORS}, summary="One game")
def get_game(request: HttpRequest, game_id: str = GameId) -> dict[str, Any]:
    user = _need(request, SCOPE_READ)
    return _view(game_id, user)


@api.post(
    "/games/{game_id}/join",
    response={200: GameOut, 409: ProblemOut, **ERRORS},
    summary="Join a game",
)
def join(request: HttpRequest, body: JoinIn, game_id: str = GameId) -> dict[str, Any]:
    user = _need(request, SCOPE_PLAY)
    limits.count_person(request, "join")
    _visible(game_id, user, body.invite_token)
    try:
        services.join_game(
            public_id=game_id,
            user=user,
            invite_token=body.invite_token,
            seed=body.seed,
            confirm_blocked=body.confirm_blocked,
        )
    except services.GameError as exc:
        raise _game_error(exc) from None
    return _view(game_id, user)


@api.post(
    "/games/{game_id}/seed",
    response={200: GameOut, 409: ProblemOut, **ERRORS},
    summary="Change your dice seed",
)
def set_seed(request: HttpRequest, body: SeedIn, game_id: str = GameId) -> dict[str, Any]:
    """Until the game starts, your seat's dice seed can be changed or
    removed; from the start it is fixed (422)."""
    user = _need(request, SCOPE_PLAY)
    _visible(game_id, user)
    try:
        services.set_seed(public_id=game_id, user=user, seed=body.seed)
    except services.GameError as exc:
        raise _game_error(exc) from None
    return _view(game_id, user)


@api.post(
    "/games/{game_id}/bots",
    response={201: GameOut, 409: ProblemOut, **ERRORS},
    summary="Add a site bot",
)
def add_bot(request: HttpRequest, body: BotIn, game_id: str = GameId) -> Status[dict[str, Any]]:
    user = _need(request, SCOPE_PLAY)
    _visible(game_id, user)
    try:
        services.add_bot(public_id=game_id, user=user, kind=body.kind)
    except services.GameError as exc:
        raise _game_error(exc) from None
    return Status(201, _view(game_id, user))


@api.post(
    "/games/{game_id}/start",
    response={200: GameOut, 409: ProblemOut, **ERRORS},
    summary="Start a game",
)
def start(request: HttpRequest, game_id: str = GameId) -> dict[str, Any]:
    user = _need(request, SCOPE_PLAY)
    _visible(game_id, user)
    try:
        services.start_game(public_id=game_id, user=user)
    except services.GameError as exc:
        raise _game_error(exc) from None
    return _view(game_id, user)


@api.post(
    "/games/{game_id}/resign", response={200: GameOut, 409: ProblemOut, **ERRORS}, summary="Resign"
)
def resign(request: HttpRequest, body: VersionIn, game_id: str = GameId) -> dict[str, Any]:
    user = _need(request, SCOPE_PLAY)
    viewer = _visible(game_id, user)
    if viewer.seat is None:
        raise Problem(403, "Only players in this game can resign.")
    try:
        services.resign(public_id=game_id, user=user, expected_version=body.expected_version)
    except services.GameError as exc:
        raise _game_error(exc) from None
    return _view(game_id, user)


# --- actions ------------------------------------------------------------------------


def form_data(action: Any) -> QueryDict:
    """The action as the page's form would post it, for ``parse_action``:
    the same checks and the same bounds as a move made on the page."""
    data = QueryDict(mutable=True)
    data["kind"] = action.kind
    for name in ("square", "target", "amount"):
        value = getattr(action, name, None)
        if value is not None:
            data[name] = str(value)
    terms = getattr(action, "terms", None)
    if terms is not None:
        for side in ("give", "take"):
            data.setlist(f"{side}_props", [str(sq) for sq in getattr(terms, f"{side}_props")])
            data[f"{side}_cash"] = str(getattr(terms, f"{side}_cash"))
            cards = getattr(terms, f"{side}_cards")
            if len(cards) != 2:
                raise FormError("Jail cards are given as [chance, chest].")
            for deck, count in enumerate(cards):
                data[f"{side}_cards_{deck}"] = str(count)
    return data


def _refused(game_id: str, user: Any, kind: str, exc: services.GameError) -> Problem:
    """A refused move, told apart as the page does: 404 for a game the user
    may not see, 403 for a spectator or a move out of turn, 409 for a stale
    version, 422 for an illegal one."""
    viewer = _visible(game_id, user)
    if viewer.seat is None:
        raise Problem(403, "Only players in this game can act.", slug="not-a-player")
    if isinstance(exc, services.IllegalMove) and viewer.game.state:
        state = engine.from_dict(viewer.game.state)
        mine = {a["kind"] for a in reads.legal_actions(state, viewer.seat.number)}
        waiting = any(p.player == viewer.seat.number for p in engine.pending_decisions(state))
        if kind not in mine and not waiting:
            return Problem(403, exc.message, slug="not-your-turn")
    return _game_error(exc)


def _fingerprint(game_id: str, body: ActionIn) -> str:
    raw = json.dumps([game_id, body.model_dump(mode="json")], sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()


def _replay_if_answered(user: Any, key: str | None, game_id: str, fingerprint: str) -> None:
    """Raise ``Replay`` with the first answer to ``key``, or a 422 if the key
    answered another request; return if nothing was answered with it."""
    if key is None:
        return
    first = IdempotentAnswer.objects.filter(user=user, key=key).first()
    if first is None or first.status is None:
        return
    if first.game_public_id != game_id or first.fingerprint != fingerprint:
        raise Problem(
            422, "This Idempotency-Key was used for another request.", slug="idempotency-key-reused"
        )
    raise Replay(first)


class Replay(Exception):
    def __init__(self, first: IdempotentAnswer) -> None:
        super().__init__("replay")
        self.first = first


@api.exception_handler(Replay)
def _replay(request: HttpRequest, exc: Replay) -> HttpResponse:
    response = HttpResponse(
        json.dumps(exc.first.body), status=exc.first.status, content_type="application/json"
    )
    response["Idempotent-Replayed"] = "true"
    return response


@api.post(
    "/games/{game_id}/actions",
    response={200: ActionOut, 409: ProblemOut, **ERRORS},
    summary="Act in a game",
)
def act(
    request: HttpRequest,
    body: ActionIn,
    game_id: str = GameId,
    idempotency_key: str | None = Header(  # type: ignore[type-arg]
        None,
        alias="Idempotency-Key",
        pattern=IDEMPOTENCY_KEY,
        description="Retries with the same key get the first answer; nothing is applied twice.",
    ),
) -> dict[str, Any]:
    """Apply one action of your seat. ``expected_version`` must be the game's
    current version (409 otherwise), or an older one for an action that still
    means the same now (a pass, ending the turn, a bid still above the high bid)."""
    user = _need(request, SCOPE_PLAY)
    try:
        action = parse_action(form_data(body.action))
    except FormError as exc:
        raise Problem(422, exc.message, slug="invalid-action") from None
    scope = action_kinds.scope(action["kind"])
    if scope is not None:
        limits.count_person(request, scope)  # with the page's, in one counter
    fingerprint = _fingerprint(game_id, body) if idempotency_key is not None else ""
    try:
        # The move, its answer and the key commit together. A retry with the
        # key is refused by the game (its expected_version is now stale, and
        # its seat has moved since, so even a pass is not applied again) or,
        # having moved the game again, by the key's unique constraint, which
        # rolls its move back: either way it gets the first answer.
        with transaction.atomic():
            # This block is the action's transaction: a refusal rolls it
            # back whole, so the service needs no savepoint inside it.
            played = services.play_action(
                public_id=game_id,
                user=user,
                action=action,
                expected_version=body.expected_version,
                savepoint=False,
            )
            answer = _answer(played)
            if idempotency_key is not None:
                IdempotentAnswer.objects.create(
                    user=user,
                    key=idempotency_key,
                    game_public_id=game_id,
                    fingerprint=fingerprint,
                    status=200,
                    body=answer,
                )
    except services.GameError as exc:
        _replay_if_answered(user, idempotency_key, game_id, fingerprint)
        raise _refused(game_id, user, action["kind"], exc) from None
    except IntegrityError:
        _replay_if_answered(user, idempotency_key, game_id, fingerprint)
        raise
    return answer


def _answer(played: services.Played) -> dict[str, Any]:
    seat = played.seat
    return {
        "version": played.version,
        "events": [reads.event_entry(e, played.state) for e in played.events],
        "legal_actions": reads.legal_actions(
            played.state, seat.number if seat.status == Seat.Status.PLAYING else None
        ),
    }
