"""The process's caches keep only what committed rows say (common/memo.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from common import memo
from common.memo import Memo


@pytest.fixture
def cache() -> Memo[str]:
    return Memo("test", 2)


def test_a_value_put_outside_a_transaction_is_found_again(cache: Memo[str]) -> None:
    cache.put("k", "v")
    assert cache.get("k") == "v"


@pytest.mark.django_db(transaction=True)
def test_a_value_put_inside_a_transaction_is_not_kept(cache: Memo[str]) -> None:
    with transaction.atomic():
        cache.put("k", "read from rows that may roll back")
    assert cache.get("k") is None


def test_a_held_value_is_kept_only_once_kept(cache: Memo[str]) -> None:
    with memo.held() as puts:
        cache.put("k", "rendered ahead of the commit")
    assert cache.get("k") is None
    memo.keep(puts)
    assert cache.get("k") == "rendered ahead of the commit"


def test_an_older_version_does_not_replace_a_newer_one(cache: Memo[str]) -> None:
    cache.put("k", "version 3", version=3)
    cache.put("k", "version 2", version=2)
    assert cache.get("k") == "version 3"
    cache.put("k", "version 4", version=4)
    assert cache.get("k") == "version 4"


def test_a_full_cache_drops_the_entry_used_least_recently(cache: Memo[str]) -> None:
    cache.put("a", "1")
    cache.put("b", "2")
    assert cache.get("a") == "1"  # b is now the least recently used
    cache.put("c", "3")
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == ("1", None, "3")


def test_clear_all_forgets_every_cache(cache: Memo[str]) -> None:
    cache.put("k", "v")
    memo.clear_all()
    assert cache.get("k") is None


def test_a_cache_named_in_memo_off_keeps_nothing(cache: Memo[str], settings: Any) -> None:
    settings.MEMO_OFF = frozenset({"test"})
    cache.put("k", "v")
    assert cache.get("k") is None
