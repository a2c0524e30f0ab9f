"""Sockets end with the session that opened them.

A socket is authenticated once, when it connects; without this a socket
opened before a logout kept receiving its seat's private panel. Every
signed-in socket therefore listens on two channel-layer groups: one for its
session and one for its user. Logging out ends the session's sockets; a
password change ends all of the user's sockets (see ``password_changed``).
A socket told so closes with ``CLOSE_SESSION_ENDED``; the page (live.js)
then reloads itself, and whatever connects again is authenticated afresh.

Group names carry a keyed hash of the session key, never the key itself:
group names are visible to anyone who can read Redis, and the key is a
bearer credential.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.utils.crypto import salted_hmac

from common import passwords, redis_health

logger = logging.getLogger(__name__)

CLOSE_SESSION_ENDED = 4401
SESSION_END = {"type": "session.end"}


def session_group(session_key: str) -> str:
    digest = salted_hmac("live.sessions.group", session_key, algorithm="sha256").hexdigest()
    return f"session-{digest[:40]}"


def user_sockets_group(user_pk: int) -> str:
    return f"user-{user_pk}-sockets"


def groups_for(scope: dict[str, Any]) -> list[str]:
    """The groups whose "session ended" a socket with this scope obeys:
    none for anonymous sockets (they carry nothing that a logout revokes)."""
    user: Any = scope.get("user")
    if not getattr(user, "is_authenticated", False):
        return []
    groups = [user_sockets_group(user.pk)]
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    if key:
        groups.append(session_group(key))
    return groups


def _end(group: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        with redis_health.guarded():
            async_to_sync(layer.group_send)(group, SESSION_END)
    except redis_health.ERRORS:
        # The session itself is gone from the database, which is what counts:
        # without Redis no socket is open (the channel layer fails them all),
        # and a socket that connects again is authenticated afresh.
        logger.warning("Could not tell %s's sockets that their session ended", group)


def end_session_sockets(session_key: str) -> None:
    _end(session_group(session_key))


def end_user_sockets(user_pk: int) -> None:
    _end(user_sockets_group(user_pk))


def logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if session is None or not key:
        return
    # Django flushes the session just after this signal. Flushing it first
    # (flushing twice is harmless) means a socket that reconnects the moment
    # it is closed finds the session gone and connects anonymous.
    session.flush()
    end_session_sockets(key)


# A password change invalidates the user's other sessions (their stored
# hash no longer matches) and keeps the one that made it (Django's
# ``update_session_auth_hash``, which also gives it a new key). Every socket
# of the user is closed: pages of a still-valid session come back as the
# user, the others anonymous. Closing all of them needs no race with the
# hash update of the current session, which happens after the save, and also
# covers changes made elsewhere (``common.passwords``).
def password_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    pk = instance.pk
    # After the commit, so that a socket reconnecting at once already meets
    # the new password hash.
    transaction.on_commit(lambda: end_user_sockets(pk))


def standing_changed(sender: Any, user_id: int, kind: str, **kwargs: Any) -> None:
    """A moderator closed the account (sent after the commit): its sockets
    end now, and reconnect as nobody, its sessions being gone."""
    if kind == "close":
        end_user_sockets(user_id)


def connect_signals() -> None:
    from people import signals as people_signals

    user_logged_out.connect(logged_out, dispatch_uid="live.sessions.logged_out")
    people_signals.standing_changed.connect(standing_changed, dispatch_uid="live.sessions.standing")
    passwords.connect_signals()
    passwords.password_changed.connect(password_changed, dispatch_uid="live.sessions.password")
