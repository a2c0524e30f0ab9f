"""Who may see a game: the one rule behind every page, record, socket and
list that shows one.

A public game is open to everyone. A private game is open to its seated
players and to whoever holds its current invite token: given in the request
(``?invite=`` on a link, ``invite_token`` in a form) or remembered in the
session once a valid token was used (``/join/<token>/``). The token is
checked against the game's current one every time, so rotating it
(``services.do_rotate_invite``) shuts out everyone who only had the old
link; their open sockets are closed as well (``invited_group``).

Tokens are compared in constant time. Lookups by token (the invite link)
go through the unique index, which is the usual practice: finding a row by
a 256-bit random value leaks nothing useful through timing.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.http import Http404

from common import redis_health
from games.models import Game, Seat

logger = logging.getLogger(__name__)

SESSION_KEY = "game_invites"  # {public_id: token}
REMEMBERED = 50  # invites kept per session; the oldest go first


def token_matches(given: Any, game: Game) -> bool:
    if not isinstance(given, str) or not given or not game.invite_token:
        return False
    return secrets.compare_digest(given.encode(), game.invite_token.encode())


def remembered_token(session: Any, game: Game) -> str | None:
    if session is None:
        return None
    invites = session.get(SESSION_KEY)
    if not isinstance(invites, dict):
        return None
    token = invites.get(game.public_id)
    return token if isinstance(token, str) else None


def remember(session: Any, game: Game) -> None:
    """Keep the game's current token in the session, so that its pages,
    socket and forms work without the token in every URL."""
    if session is None:
        return
    invites = session.get(SESSION_KEY)
    invites = dict(invites) if isinstance(invites, dict) else {}
    if invites.get(game.public_id) == game.invite_token:
        return
    invites.pop(game.public_id, None)
    invites[game.public_id] = game.invite_token
    while len(invites) > REMEMBERED:
        invites.pop(next(iter(invites)))
    session[SESSION_KEY] = invites


def invited(game: Game, session: Any, given: Any = None) -> bool:
    """Whether the viewer holds the game's current invite token; a valid
    token given in the request is remembered in the session."""
    if token_matches(given, game):
        remember(session, game)
        return True
    return token_matches(remembered_token(session, game), game)


def request_token(request: Any) -> str | None:
    token = request.GET.get("invite") or request.POST.get("invite_token")
    return token or None


def invite_token_for(request: Any, game: Game) -> str | None:
    """The valid invite token this request holds, if any (for joining)."""
    for token in (request_token(request), remembered_token(request.session, game)):
        if token_matches(token, game):
            return token
    return None


def invited_group(game_pk: int) -> str:
    """Sockets let in by the invite token alone (not seated): told to close
    when the token changes. Not named ``game-...``: those are audiences."""
    return f"invited-{game_pk}"


INVITE_REVOKED = {"type": "invite.revoked"}


def close_invited_sockets(game_pk: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        with redis_health.guarded():
            async_to_sync(layer.group_send)(invited_group(game_pk), INVITE_REVOKED)
    except redis_health.ERRORS:
        # Without Redis no socket is open; one that connects again is checked
        # against the new token.
        logger.warning("Could not close the invited sockets of game %s", game_pk)


# --- the access functions: one per kind of thing, each with the rule above ------


@dataclass(frozen=True)
class Viewer:
    """A game as one viewer may see it: ``seat`` is theirs (None for a
    spectator); ``invited`` says they are let in by the invite token alone."""

    game: Game
    seat: Seat | None
    invited: bool = False


def check_viewer(
    game: Game, user: Any, session: Any, given: Any = None, seats: list[Seat] | None = None
) -> Viewer | None:
    """The rule itself: ``given`` is a token from the request, if any;
    ``seats``, the game's seats if the caller has read them."""
    seat = None
    if getattr(user, "is_authenticated", False):
        if seats is not None:
            seat = next((s for s in seats if s.user_id == user.pk), None)
        else:
            seat = game.seats.select_related("user").filter(user=user).first()
    if game.is_public or seat is not None:
        return Viewer(game, seat)
    if invited(game, session, given):
        return Viewer(game, None, invited=True)
    return None


def access_game_for_viewer(request: Any, public_id: str, *, started: bool = False) -> Viewer:
    """The game of a page or a form, as the requesting viewer may see it; a
    game they may not see does not exist for them (404), and neither, with
    ``started``, does one not yet started."""
    game = Game.objects.select_related("host").filter(public_id=public_id).first()
    viewer = None
    if game is not None and not (started and game.state is None):
        viewer = check_viewer(game, request.user, request.session, request_token(request))
    if viewer is None:
        raise Http404("There is no such game.")
    return viewer


@dataclass(frozen=True)
class Listener:
    """Who a game's socket is: the game, their seat (None: a spectator) and
    whether only the invite token let them in."""

    game_pk: int
    seat: int | None
    is_public: bool
    invited: bool = False


def viewer_key(user: Any, seat: int | None) -> str:
    """Who a game page was drawn for, as its socket's ``?as=`` carries it: a
    socket that connects as someone else (the session ended, or another
    account signed in, while the page stayed open) would otherwise bring
    only the regions that changed, and leave the other viewer's action
    panel on the page. Ids and seat numbers are public; nothing here is a
    credential."""
    pk = user.pk if getattr(user, "is_authenticated", False) else 0
    return f"{pk}-{'x' if seat is None else seat}"


def access_listener(public_id: str, user: Any, session: Any = None) -> Listener | None:
    """A started game's socket; None means refuse. Sockets carry no token:
    an invite counts once remembered in the session."""
    game = (
        Game.objects.filter(public_id=public_id)
        .only("pk", "public_id", "is_public", "state", "invite_token")
        .first()
    )
    if game is None or game.state is None:
        return None
    viewer = check_viewer(game, user, session)
    if viewer is None:
        return None
    number = viewer.seat.number if viewer.seat is not None else None
    return Listener(game.pk, number, game.is_public, viewer.invited)


def access_waiting_listener(
    public_id: str, user: Any, session: Any = None
) -> tuple[int, bool, bool] | None:
    """(pk, still waiting, let in by the invite token alone) of a game, for
    its waiting page's socket; None means refuse."""
    game = (
        Game.objects.filter(public_id=public_id)
        .only("pk", "public_id", "is_public", "status", "invite_token")
        .first()
    )
    viewer = check_viewer(game, user, session) if game is not None else None
    if game is None or viewer is None:
        return None
    return game.pk, game.status == Game.Status.LOBBY, viewer.invited
