"""The process's in-memory caches, all of one kind and under one rule.

The rule: **a cache holds only what was computed from committed rows.** A
``put`` made inside a transaction (Django's ``in_atomic_block``) is dropped,
since what it read may yet roll back; one made inside ``held()`` (a push
rendered while its move commits) waits aside until the caller ``keep``s it,
once the move has committed, and is dropped otherwise. A key names whatever
else the value depends on (a game and a viewer, a template's values), and an
entry is never replaced by one computed from an older ``version`` of it.
When a cache is full, the entry used least recently goes.

Everything else follows from that: nobody invalidates an entry by hand, and
``clear_all`` (a repair that rewrote rows behind the services' back, a test
that wants a cold process) forgets everything at once.

``MEMO_OFF`` (a setting; comma-separated names in the environment) turns
named caches off, so that a benchmark can show what each one earns.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import connection

V = TypeVar("V")
Held = list[tuple["Memo[Any]", Hashable, Any, int]]

_held = threading.local()
_all: list[Memo[Any]] = []


class Memo(Generic[V]):
    """One named cache of at most ``size`` entries (see the module's rule)."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._entries: OrderedDict[Hashable, tuple[int, V]] = OrderedDict()
        self._lock = threading.Lock()  # pushes render in more than one thread
        _all.append(self)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[1]

    def put(self, key: Hashable, value: V, version: int = 0) -> None:
        if self.name in getattr(settings, "MEMO_OFF", ()):
            return
        held: Held | None = getattr(_held, "puts", None)
        if held is not None:
            held.append((self, key, value, version))
        elif not connection.in_atomic_block:
            self._store(key, value, version)

    def _store(self, key: Hashable, value: V, version: int) -> None:
        with self._lock:
            known = self._entries.get(key)
            if known is not None and known[0] > version:
                return
            self._entries[key] = (version, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


@contextmanager
def held() -> Iterator[Held]:
    """Inside, this thread's puts wait in the list yielded, for ``keep``."""
    puts: Held = []
    _held.puts = puts
    try:
        yield puts
    finally:
        _held.puts = None


def keep(puts: Held) -> None:
    """Make the puts ``held`` collected, now that what they read has committed."""
    for memo, key, value, version in puts:
        memo._store(key, value, version)


def clear_all() -> None:
    """Forget every cached value of this process."""
    for memo in _all:
        memo.clear()
