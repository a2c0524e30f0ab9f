"""Sessions kept in the database and read from the cache (Redis).

Every signed-in request loads its session; with Django's ``db`` backend that
is a query per request on the hot path of a move. ``cached_db`` reads it from
Redis instead and still writes every change to the database, which remains the
copy that counts. While Redis is unreachable a session is read from the
database alone instead of failing the request (Redis going away delays pushes
and timers, it should not log anyone out or stop them playing): the site's
cache misses then (``common.cache``), and this store reads the database
even if some other error escapes it. A session deleted or changed meanwhile
(a logout) has its cached copy deleted as soon as Redis answers again, so an
old copy cannot bring it back.
"""

from __future__ import annotations

import logging
import string
from typing import Any

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DBStore

logger = logging.getLogger(__name__)

# Django makes keys of lowercase letters and digits; either case is taken, so
# that a change of its alphabet would log nobody out.
KEY_CHARS = frozenset(string.ascii_letters + string.digits)
MAX_KEY_LENGTH = 40  # the session table's column


def well_formed(key: str | None) -> bool:
    """A key this store could have made. The cookie is the visitor's to
    write, and Django's own check (at least 8 characters) lets through a NUL,
    which PostgreSQL refuses in any query: the session lookup failed the
    request (a 500) instead of finding no session (monopoly_site/badinput.py)."""
    return key is not None and 8 <= len(key) <= MAX_KEY_LENGTH and set(key) <= KEY_CHARS


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        # Every key from outside comes in here (Django's and Channels' session
        # middleware build a store from the cookie): one that is not well
        # formed is no session, as an unknown one is.
        super().__init__(session_key if well_formed(session_key) else None)

    def load(self) -> dict[str, Any]:
        try:
            return super().load()
        except Exception:
            logger.warning("Session cache unavailable; reading the session from the database")
            return DBStore.load(self)
