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
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.models import Game
from monopoly_site import redis_health

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
