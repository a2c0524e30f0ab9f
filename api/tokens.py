"""Issuing, checking and revoking personal API tokens.

A token is ``mnp_<prefix>_<secret>``: a 12-character public prefix finds the
row through its unique index, and the SHA-256 of the whole token is
compared in constant time. The secret holds 256 random bits, so a fast hash
is enough (no password stretching is needed for a value nobody chose).
Every request reads the row again: revoking takes effect at once.

A password change revokes all of the account's tokens, in the change's own
transaction (``common.passwords``): whoever took the password may have made
a token with it, and browser sessions and sockets end then too. The page
that changes the password says so beforehand (``accounts.forms``) and after.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from api.models import SCOPE_BOT, SCOPE_PLAY, SCOPE_READ, SCOPES, ApiToken
from common import passwords
from common.rows import reader
from games.bot_accounts import is_bot_account

PREFIX = "mnp"
PREFIX_LENGTH = 12
NAME_LENGTH = 60
# ``last_used_at`` is written at most this often per token (one UPDATE,
# not one per request).
TOUCH_EVERY = timedelta(minutes=1)


class TokenError(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_scopes(scopes: Iterable[str]) -> list[str]:
    chosen = [s.strip() for s in scopes if s.strip()]
    unknown = sorted(set(chosen) - set(SCOPES))
    if unknown:
        raise TokenError(f"Unknown scope {unknown[0]!r}: choose among {', '.join(SCOPES)}.")
    if not chosen:
        raise TokenError("Choose at least one scope.")
    return [s for s in SCOPES if s in chosen]


def scopes_for(user: Any) -> tuple[str, ...]:
    """The scopes ``user`` may be issued: a bot account plays with ``bot``,
    a person with ``play`` (``api.auth``)."""
    if is_bot_account(user):
        return (SCOPE_READ, SCOPE_BOT)
    return (SCOPE_PLAY, SCOPE_READ)


def default_scopes(user: Any) -> list[str]:
    return [SCOPE_BOT] if is_bot_account(user) else [SCOPE_PLAY, SCOPE_READ]


def issue(user: Any, *, scopes: Iterable[str], name: str = "") -> tuple[ApiToken, str]:
    """A new token for ``user``: the row, and the token to show once."""
    chosen = check_scopes(scopes)
    if SCOPE_BOT in chosen and not is_bot_account(user):
        raise TokenError(
            "The bot scope is only for bot accounts: make this account one on the "
            "settings page first."
        )
    if SCOPE_PLAY in chosen and is_bot_account(user):
        raise TokenError("A bot account plays with the bot scope, not play.")
    name = name.strip()[:NAME_LENGTH]
    while True:
        prefix = secrets.token_hex(PREFIX_LENGTH // 2)
        token = f"{PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
        with transaction.atomic():
            check_token_room(user)
            if ApiToken.objects.filter(prefix=prefix).exists():
                continue  # 48 random bits: practically never
            row = ApiToken.objects.create(
                user=user, name=name, scopes=chosen, prefix=prefix, digest=digest(token)
            )
        return row, token


def check_token_room(user: Any) -> None:
    """Refuse a token past ``API_TOKENS_PER_ACCOUNT`` live ones: each has a
    budget of its own, so tokens without end would be requests without end.
    The user's row is locked first, so that two requests racing for the
    last place cannot both have it. Call inside a transaction."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
    live = ApiToken.objects.filter(user=user, revoked_at__isnull=True).count()
    cap = settings.API_TOKENS_PER_ACCOUNT
    if live >= cap:
        raise TokenError(
            ngettext(
                "You already have %(count)d API token, the most an account may have: "
                "revoke it before making another.",
                "You already have %(count)d API tokens, the most an account may have: "
                "revoke one before making another.",
                cap,
            )
            % {"count": cap}
        )


def authenticate(token: str) -> ApiToken | None:
    """The live token row for ``token``, its user loaded; None if unknown,
    revoked, or its user is inactive."""
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != PREFIX or len(parts[1]) != PREFIX_LENGTH:
        return None
    row = _live_row(parts[1])
    if row is None or not secrets.compare_digest(row.digest, digest(token)):
        return None
    if not row.user.is_active:
        return None
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at > TOUCH_EVERY:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return row


def _live_row(prefix: str) -> ApiToken | None:
    """The unrevoked token row with ``prefix``, its user loaded: every API
    request reads it, so the statement is built once (``common.rows``)."""
    tokens, users = reader(ApiToken), reader(get_user_model())
    sql = (
        f"SELECT {tokens.columns()}, {users.columns('u')} FROM {tokens.table}"
        f" JOIN {users.table} u ON u.id = {tokens.table}.user_id"
        f" WHERE {tokens.table}.prefix = %s AND {tokens.table}.revoked_at IS NULL"
    )
    with transaction.get_connection().cursor() as cursor:
        cursor.execute(sql, [prefix])
        found = cursor.fetchone()
    if found is None:
        return None
    row: ApiToken = tokens.build(found)
    ApiToken.user.field.set_cached_value(row, users.build(found[len(tokens.fields) :]))
    return row


def revoke(user: Any, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens; False if it is not theirs or was
    already revoked (compare-and-set)."""
    changed = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    return changed == 1


def revoke_all(user: Any) -> int:
    """Revoke every live token of ``user``; how many there were."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


_REVOKED = "_api_tokens_revoked"


def password_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    setattr(instance, _REVOKED, revoke_all(instance))


def tell_of_revoked(request: Any, user: Any, **kwargs: Any) -> None:
    """After allauth's password change or reset: the page says what went."""
    revoked = getattr(user, _REVOKED, 0)
    if revoked:
        messages.warning(
            request,
            ngettext(
                "Your API token was revoked with your old password: make a new one "
                "on the settings page for the programs that used it.",
                "Your %(count)d API tokens were revoked with your old password: make new "
                "ones on the settings page for the programs that used them.",
                revoked,
            )
            % {"count": revoked},
        )


def connect_signals() -> None:
    from allauth.account import signals

    passwords.connect_signals()
    passwords.password_changed.connect(password_changed, dispatch_uid="api.tokens.password")
    signals.password_changed.connect(tell_of_revoked, dispatch_uid="api.tokens.changed")
    signals.password_reset.connect(tell_of_revoked, dispatch_uid="api.tokens.reset")
    signals.password_set.connect(tell_of_revoked, dispatch_uid="api.tokens.set")
