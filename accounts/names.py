"""Names that cannot pass for someone else's.

A username or display name is shown wherever a person appears; another
account may not hold one that looks the same. Two names look the same when
their *keys* meet (``keys``), and every name's keys are rows of
``NameClaim`` under a unique constraint, so the database decides when two
sign-ups race for "Alice" and "alice".

Each name has two keys:

- ``f:`` its folded form: NFKC (a full-width A, U+FF21, is "A") and case folding, and
  every letter of another script that looks like an ASCII one replaced by
  it (the Unicode confusables data, from ``confusable-homoglyphs``), so "alice"
  spelt with a Cyrillic a (U+0430) meets "alice";
- ``s:`` its shape, with case kept: ASCII letters and digits that look alike
  in most fonts (I, l, 1 and |; O and 0) made one, so "AIice" meets "Alice"
  while "Eli" and "Ell" stay apart.

Besides, a name may not hide characters (zero-width, bidi controls and the
like), may not slip another script's look-alike letter into a Latin word
(``confusables.is_dangerous``: so nobody can take "paypal" with a Cyrillic
a before the real one comes), may not read as a reserved word (``ACCOUNT_USERNAME_BLACKLIST``) or
as a site bot's seat ("Heuristic bot 1", ``games.models.Seat.name``), and
the checks read the folded form, so a full-width "bot" is "bot".
"""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs import confusables
from django.conf import settings
from django.utils.translation import gettext as _

from common import text
from games.models import Seat

NAME_FIELDS = ("username", "display_name")
FOLD = "f:"
SHAPE = "s:"
# Longer keys than this are refused (NFKC can turn one character into
# eighteen); the claim column holds them with the prefix.
MAX_KEY = 300
MAX_MARKS = 3
# A shape's ASCII look-alikes, after other scripts' letters became ASCII.
_SAME_SHAPE = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "O"})
_DIRECTION_MARKS = "\u200e\u200f"


def _nfkc(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split())


def fold(name: str) -> str:
    """Unicode's compatibility caseless form: NFKC, case folded, NFKC."""
    return _nfkc(_nfkc(name).casefold())


@functools.lru_cache(maxsize=8192)
def _ascii_lookalike(ch: str) -> str:
    """The ASCII text ``ch`` is confusable with, or ``ch`` if none is."""
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=[]) or []
    for entry in found:
        for glyph in entry["homoglyphs"]:
            shape = glyph["c"].strip(_DIRECTION_MARKS)
            if shape and shape.isascii() and not shape.isspace():
                return str(shape)
    return ch


def _lookalikes(name: str) -> str:
    return "".join(_ascii_lookalike(ch) for ch in name)


def folded_key(name: str) -> str:
    return fold(_lookalikes(fold(name)))


def shape_key(name: str) -> str:
    return _lookalikes(_nfkc(name)).translate(_SAME_SHAPE)


def keys(name: str) -> set[str]:
    """The claims ``name`` makes (none for a blank name)."""
    if not name.strip():
        return set()
    return {FOLD + folded_key(name), SHAPE + shape_key(name)}


def _compact(name: str) -> str:
    """The folded form with only its letters and digits: "B.O.T" is "bot"."""
    return re.sub(r"[\W_]+", "", folded_key(name))


@functools.cache
def _bot_pattern() -> re.Pattern[str]:
    kinds = [label for value, label in Seat.BotKind.choices if value]
    words = "|".join(re.escape(_compact(str(label))) for label in kinds)
    # A seat's number, or letters passing for one ("Random bot l").
    return re.compile(rf"(?:{words}|bot)[0-9li]*")


def _mixed_look_alike(name: str) -> str | None:
    """A letter of another script that looks Latin, in a word otherwise
    Latin ("paypal" with a Cyrillic a, U+0430), or None. A word wholly in one
    script is not faked this way (it may still meet another name's key),
    nor are names mixing scripts that look nothing alike (kanji and kana)."""
    for word in _nfkc(name).split():
        if not confusables.is_dangerous(word, preferred_aliases=["latin"]):
            continue
        for found in confusables.is_confusable(word, greedy=True, preferred_aliases=["latin"]):
            if found["alias"] not in ("COMMON", "INHERITED"):
                return str(found["character"])
    return None


def text_problem(name: str) -> str | None:
    """Why ``name`` may not be anyone's name, whoever holds what; None if it may."""
    hidden = text.first_invisible(name)
    if hidden is not None:
        return _(
            "Names cannot contain invisible or text-direction characters (%(char)s): "
            "they make a name look like another."
        ) % {"char": text.describe(hidden)}
    odd_space = next((ch for ch in name if ch.isspace() and ch != " "), None)
    if odd_space is not None:
        return _("Use ordinary spaces in names, not %(char)s.") % {"char": text.describe(odd_space)}
    if not text.has_visible(name):
        return _("A name needs at least one visible letter, digit or sign.")
    if text.most_marks_in_a_row(name) > MAX_MARKS:
        return _("Too many accents are stacked on one letter.")
    if len(folded_key(name)) > MAX_KEY or len(shape_key(name)) > MAX_KEY:
        return _("This name is too long once its characters are written out.")
    compact = _compact(name)
    reserved = {_compact(word) for word in settings.ACCOUNT_USERNAME_BLACKLIST}
    if compact in reserved:
        return _("“%(name)s” is reserved for the site; choose another name.") % {"name": name}
    if _bot_pattern().fullmatch(compact):
        return _(
            "Names that read as one of the site's bots (such as “Heuristic bot 1”) are "
            "reserved for them, so that nobody mistakes a person for a bot or a bot for a person."
        )
    return None


def mixed_problem(name: str) -> str | None:
    """Why ``name`` fakes a Latin word with another script's letters; None
    if it does not. (Checked after the names held, so that a fake of an
    existing name says whose.)"""
    mixed = _mixed_look_alike(name)
    if mixed is None:
        return None
    return _(
        "Write each word of a name in one alphabet: %(char)s looks like a Latin letter "
        "among Latin ones, which is how names are faked."
    ) % {"char": text.describe(mixed)}


def taken_message(name: str, other: str, key: str) -> str:
    """Why ``name`` is refused, another account holding ``other`` with the same ``key``."""
    if key.startswith(FOLD) and fold(name) == fold(other):
        return _(
            "“%(name)s” is taken: another player is called “%(other)s”, and names that "
            "differ only in capitals or letter width count as the same."
        ) % {"name": name, "other": other}
    if key.startswith(FOLD):
        return _(
            "“%(name)s” looks like another player's name, “%(other)s”: it uses letters of "
            "another alphabet that look the same (such as Cyrillic “\u0430” for Latin “a”)."
        ) % {"name": name, "other": other}
    return _(
        "“%(name)s” looks like another player's name, “%(other)s”: in most fonts I, l and 1, "
        "or O and 0, look the same."
    ) % {"name": name, "other": other}
