"""Whole numbers read from a request (a query parameter, a form field, a
header), through one reader that caps their digits before converting.

Python refuses to convert a string of more than 4,300 digits (the limit of
``sys.set_int_max_str_digits``) with a ValueError, and each view's own
``int()`` after ``isdigit()`` let such a string through as a 500. No number
the site takes has more than a dozen digits, so longer ones are simply not
numbers here.
"""

from __future__ import annotations

MAX_DIGITS = 12


def whole_number(raw: str | None, *, signed: bool = False, digits: int = MAX_DIGITS) -> int | None:
    """``raw`` (surrounding blanks ignored) as an int when it is at most
    ``digits`` ASCII digits, with a leading minus if ``signed``; else None.
    ``str.isdigit`` alone accepts characters like "²" that ``int`` refuses."""
    if raw is None:
        return None
    text = raw.strip()
    negative = signed and text.startswith("-")
    if negative:
        text = text[1:]
    if not (text.isascii() and text.isdigit() and len(text) <= digits):
        return None
    return -int(text) if negative else int(text)
