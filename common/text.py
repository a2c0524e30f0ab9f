"""Characters nobody sees: for names, which must look like what they are, and
chat lines, which must say something.

A zero-width space, a right-to-left override or a Hangul filler is drawn as
nothing (or turns the text around it), so two names that differ only by one
look the same, and a message made of them reads as blank.
"""

from __future__ import annotations

import unicodedata

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn
# as nothing unless a font supports them on purpose. Python's unicodedata
# has no such property, and the set has been stable for years.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Letters and symbols that are blank by design (BRAILLE PATTERN BLANK is a
# favourite "empty" name), though not ignorable.
_BLANK = frozenset({0x2800, 0x1D159})
# Format, control, surrogate, private-use and unassigned characters, and
# line or paragraph separators: none is a visible part of a name or line.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Marks are drawn on a letter before them; alone they show nothing.
_MARKS = frozenset({"Mn", "Me"})


def is_invisible(ch: str) -> bool:
    """Whether ``ch`` is drawn as nothing (a space is not: it is visibly a gap)."""
    code = ord(ch)
    if code in _BLANK or unicodedata.category(ch) in _HIDDEN_CATEGORIES:
        return True
    return any(low <= code <= high for low, high in _IGNORABLE)


def first_invisible(text: str) -> str | None:
    """The first invisible character of ``text``, or None."""
    return next((ch for ch in text if is_invisible(ch)), None)


def has_visible(text: str) -> bool:
    """Whether ``text`` shows anything: a character that is neither blank,
    space, invisible nor a mark with nothing to sit on."""
    return any(
        not ch.isspace() and not is_invisible(ch) and unicodedata.category(ch) not in _MARKS
        for ch in text
    )


def describe(ch: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: a character named for a message."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip()


def most_marks_in_a_row(text: str) -> int:
    """The longest run of combining marks: stacked accents that spill above
    and below the line."""
    longest = run = 0
    for ch in unicodedata.normalize("NFC", text):
        run = run + 1 if unicodedata.category(ch) in _MARKS else 0
        longest = max(longest, run)
    return longest
