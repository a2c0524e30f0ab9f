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
from typing import Any

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.backends.db import SessionStore as DBStore

logger = logging.getLogger(__name__)

KEY_CHARS = frozenset(VALID_KEY_CHARS)
MAX_KEY_LENGTH = 40  # the session table's column


class SessionStore(cached_db.SessionStore):
    def load(self) -> dict[str, Any]:
        try:
            return super().load()
        except Exception:
            logger.warning("Session cache unavailable; reading the session from the database")
            return DBStore.load(self)

    def _validate_session_key(self, key: str | None) -> bool:
        """Only a key this store could have made is looked up: the cookie is
        the visitor's to write, and a NUL in it failed the query (a 500)
        instead of being no session (monopoly_site/badinput.py)."""
        return key is not None and 8 <= len(key) <= MAX_KEY_LENGTH and set(key) <= KEY_CHARS
