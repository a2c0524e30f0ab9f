"""Who asks and what they may see: a token's scopes for its user now, and
the games ``games.access`` lets them see.

Scopes (docs/api.md): ``read`` for every GET, ``play`` for every write of a
person's account, and ``bot`` for a bot account, which it lets read and
play. A bot account plays only with ``bot``: its ``read`` tokens read, and
``play`` (never issued to it, but left from before the switch) does
nothing. ``bot`` does nothing for an account that is no longer a bot
account: each request looks at the account as it is then.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.models import SCOPE_BOT, SCOPE_PLAY, SCOPE_READ, ApiToken
from api.problems import Problem
from games import access, services
from games.bot_accounts import is_bot_account


def granted(scopes: list[str], user: Any) -> set[str]:
    """What a token with ``scopes`` lets ``user`` do now."""
    out = set(scopes)
    if is_bot_account(user):
        out.discard(SCOPE_PLAY)
        if SCOPE_BOT in scopes:
            out |= {SCOPE_PLAY, SCOPE_READ}
    else:
        out.discard(SCOPE_BOT)
    return out


def need(request: HttpRequest, scope: str) -> Any:
    """The token's user, if the token grants ``scope`` (403 otherwise)."""
    token: ApiToken = request.auth  # type: ignore[attr-defined]
    user = token.user
    if scope in granted(token.scopes, user):
        return user
    if is_bot_account(user) and scope == SCOPE_PLAY:
        detail = "A bot account plays with a token of the 'bot' scope."
    elif SCOPE_BOT in token.scopes and not is_bot_account(user):
        detail = "The 'bot' scope works only for bot accounts, and this one is not (any more)."
    else:
        detail = f"This token lacks the '{scope}' scope."
    raise Problem(403, detail, slug="scope")


def visible(game_id: str, user: Any, invite_token: str | None = None) -> access.Viewer:
    """The game as ``user`` may see it (404 otherwise, as on the site)."""
    return visible_rows(game_id, user, invite_token)[0]


def visible_rows(
    game_id: str, user: Any, invite_token: str | None = None
) -> tuple[access.Viewer, services.GameRows]:
    """``visible``, with the game's seats and deadline rows read with it (in
    one round trip, for the views that show them)."""
    rows = services.read_game(public_id=game_id)
    viewer = None
    if rows is not None:
        viewer = access.check_viewer(rows.game, user, None, invite_token, seats=rows.seats)
    if viewer is None or rows is None:
        raise Problem(404, "There is no such game.")
    return viewer, rows
