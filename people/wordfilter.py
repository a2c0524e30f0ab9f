"""The chat filter: words a line may not carry, from a small list that ships
with the site (``people/wordlists/default.txt``) and the lists named in
``CHAT_FILTER_WORDS_FILES``. A matching line is refused or has the words
masked (``CHAT_FILTER_MODE``), and every match counts towards an automatic
report (``CHAT_FILTER_REPORT_AFTER`` in ``CHAT_FILTER_WINDOW_SECONDS``).

Matching reads the line as a filter-dodger writes it: compatibility forms
and case folded (a full-width or upper-case word is the word), accents and
invisible characters dropped (a zero-width space inside a word), letters
of other scripts that look like Latin ones read as those (a Cyrillic a,
U+0430), and the usual digits and symbols for letters ("1d10t"). Words
match whole, so a word inside a longer one ("class" holds "ass") is no match.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from confusable_homoglyphs import confusables
from django.conf import settings
from redis.exceptions import RedisError

from common import redis_health, text

logger = logging.getLogger(__name__)

DEFAULT_LIST = Path(__file__).resolve().parent / "wordlists" / "default.txt"
MASK = "●●●"
REFUSE, MASK_MODE = "refuse", "mask"
# The lines kept per person as the evidence of an automatic report.
EVIDENCE_LINES = 10
# Digits and symbols written for letters.
# Not "!" or "?": they end sentences, and a word is matched only whole.
_LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}


@functools.lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    """What one character of a line reads as, for matching ("" for nothing)."""
    if text.is_invisible(ch):
        return ""
    out = []
    for part in unicodedata.normalize("NFKD", ch):
        if unicodedata.category(part) in ("Mn", "Me"):
            continue  # accents: "idiöt" is "idiot"
        part = unicodedata.normalize("NFKC", part.casefold())
        for c in part:
            out.append(_LEET.get(c) or _lookalike(c))
    return "".join(out)


def _lookalike(ch: str) -> str:
    if ch.isascii():
        return ch
    for entry in confusables.is_confusable(ch, greedy=True, preferred_aliases=[]) or []:
        for glyph in entry["homoglyphs"]:
            shape = glyph["c"]
            if shape.isascii() and shape.isalpha():
                return str(shape.lower())
    return ch


def fold(line: str) -> tuple[str, list[int]]:
    """The line as it reads for matching, and for each of its characters
    the index of the character of ``line`` it came from."""
    folded: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(line):
        for c in _fold_char(ch):
            folded.append(c)
            origin.append(i)
    return "".join(folded), origin


def _fold_entry(entry: str) -> str:
    return " ".join(fold(entry)[0].split())


def read_list(path: Path) -> list[str]:
    """A list's words: one word or phrase a line, ``#`` starts a comment."""
    words = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        entry = _fold_entry(raw.split("#", 1)[0])
        if entry:
            words.append(entry)
    return words


@functools.cache
def _pattern(files: tuple[str, ...]) -> re.Pattern[str] | None:
    words: set[str] = set()
    for name in (str(DEFAULT_LIST), *files):
        try:
            words.update(read_list(Path(name)))
        except OSError:
            logger.error("The chat filter cannot read its word list %s", name)
    if not words:
        return None
    # Longest first, so a phrase wins over a word inside it. Spaces in a
    # phrase match any run of spaces or punctuation.
    alternatives = (
        r"[\W_]+".join(re.escape(part) for part in word.split())
        for word in sorted(words, key=len, reverse=True)
    )
    return re.compile(r"(?<![^\W_])(?:" + "|".join(alternatives) + r")(?![^\W_])")


def pattern() -> re.Pattern[str] | None:
    return _pattern(tuple(settings.CHAT_FILTER_WORDS_FILES))


@dataclass(frozen=True)
class Screened:
    """A line after the filter: ``words`` it matched, ``masked`` the line
    with each of them replaced by ``MASK``."""

    line: str
    words: tuple[str, ...]
    masked: str

    @property
    def matched(self) -> bool:
        return bool(self.words)


def screen(line: str) -> Screened:
    found = pattern()
    folded, origin = fold(line)
    spans = [] if found is None else [m.span() for m in found.finditer(folded)]
    if not spans:
        return Screened(line, (), line)
    words = tuple(folded[a:b] for a, b in spans)
    pieces, at = [], 0
    for a, b in spans:
        start, end = origin[a], origin[b - 1] + 1
        pieces += [line[at:start], MASK]
        at = end
    pieces.append(line[at:])
    return Screened(line, words, "".join(pieces))


def refuses() -> bool:
    return settings.CHAT_FILTER_MODE != MASK_MODE


# --- the rolling count and the automatic report --------------------------------------


def _redis() -> Any:
    from django.core.cache import cache

    return cache.redis()  # type: ignore[attr-defined]  # common.cache.RedisCache


def _key(user_id: int, part: str) -> str:
    return f"{settings.REDIS_PREFIX}:chatfilter:{part}:{user_id}"


def count_match(user: Any, screened: Screened, where: str = "") -> bool:
    """Count a matching line of ``user``'s; at ``CHAT_FILTER_REPORT_AFTER``
    matches within ``CHAT_FILTER_WINDOW_SECONDS``, file a report with the
    lines (once a window). True if a report was filed. Without Redis
    nothing is counted: the line itself was still refused or masked."""
    window = settings.CHAT_FILTER_WINDOW_SECONDS
    now = time.time()
    hits, lines, filed = _key(user.pk, "hits"), _key(user.pk, "lines"), _key(user.pk, "filed")
    entry = {"at": round(now), "where": where, "text": screened.line, "words": screened.words}
    try:
        client = _redis()
        with client.pipeline() as pipe:
            pipe.zadd(hits, {f"{now:.6f}:{id(screened)}": now})
            pipe.zremrangebyscore(hits, "-inf", now - window)
            pipe.zcard(hits)
            pipe.expire(hits, window)
            pipe.rpush(lines, json.dumps(entry))
            pipe.ltrim(lines, -EVIDENCE_LINES, -1)
            pipe.expire(lines, window)
            count = redis_health.call(pipe.execute)[2]
        if count < settings.CHAT_FILTER_REPORT_AFTER:
            return False
        if not redis_health.call(client.set, filed, "1", nx=True, ex=window):
            return False  # reported in this window already
        evidence_lines = [json.loads(raw) for raw in redis_health.call(client.lrange, lines, 0, -1)]
    except RedisError:
        logger.warning("The chat filter could not count a match: Redis does not answer.")
        return False
    from people.reports import file_report

    file_report(
        reporter=None,
        reported=user,
        reason="abuse",
        source="filter",
        evidence={"lines": evidence_lines, "matches": count, "window_seconds": window},
    )
    return True
