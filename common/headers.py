"""Control characters in a request's headers, found for the door
(``monopoly_site.badinput``), which the API's streams pass through too
(``api.stream``): a NUL in a bearer token reached the token lookup, a 500
on PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.translation import gettext as _

# C0 controls but tab, and DEL. Not C1: a header's bytes are read as
# Latin-1, so UTF-8 text there shows bytes 0x80-0x9F.
HEADER_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
MAX_NAME_SHOWN = 40


def header_problem(headers: Iterable[tuple[str, str]]) -> str | None:
    """What is wrong with the first header whose value holds a control
    character, or None."""
    for name, value in headers:
        found = HEADER_CONTROL.search(value)
        if found is not None:
            shown = name if len(name) <= MAX_NAME_SHOWN else name[: MAX_NAME_SHOWN - 1] + "…"
            message = _(
                "The header “{name}” contains a control character ({found}). "
                "Remove it and try again."
            )
            return message.format(name=shown, found=f"U+{ord(found.group()):04X}")
    return None
