"""``{% include_memo "template.html" name=value %}``: an include whose
output is remembered for the values it is given.

For the parts of a region that rarely change between versions: in the
players region each player's entry was half the render of every push, and a
move changes one or two of them. The entry is rendered with the given
values only (as ``include … with … only``), so the values decide what it
shows. They must be plain data (strings, numbers, lists, dicts, dataclasses
of those): what their pickle records is what the output is remembered by.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Final

from django import template
from django.utils import formats
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from common.memo import Memo

register = template.Library()

RENDERS: Memo[SafeString] = Memo("include", 1024)


def _key(values: dict[str, Any]) -> bytes | None:
    """The values as bytes that differ whenever they differ (their pickle,
    which records each value's type as well: "1" and 1, str and SafeString);
    None for values that cannot be pickled."""
    try:
        return pickle.dumps(values, protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None


@register.simple_tag(takes_context=True)
def include_memo(context: template.Context, template_name: str, **values: Any) -> SafeString:
    return _remembered(RENDERS, context, template_name, values)


def _remembered(
    renders: Memo[SafeString], context: template.Context, template_name: str, values: dict[str, Any]
) -> SafeString:
    frozen = _key(values)
    key = None
    if frozen is not None:
        key = (template_name, context.autoescape, context.use_l10n, get_language(), frozen)
        html = renders.get(key)
        if html is not None:
            return html
    assert context.template is not None  # set while a template renders
    found = context.template.engine.get_template(template_name)
    html = mark_safe(found.render(context.new(values)))
    if key is not None:
        renders.put(key, html)
    return html


# --- parts that carry the game's version ---------------------------------------
#
# The forms of a seat's action panel carry the version they were shown at
# (``expected_version``), so a part with forms differs at every version even
# when nothing else in it does. Such a part is rendered with a mark where the
# version goes, remembered by its other values, and the version put in after.

# No stored or engine text holds a NUL (PostgreSQL refuses one in text).
VERSION_MARK: Final = mark_safe("\x00version\x00")
NO_CSRF_TOKEN: Final = "NOTPROVIDED"  # a push's or an answer's: nobody's token
# A seat's panel has a dozen such parts (its forms, a trade form per partner).
VERSIONED_PARTS: Memo[SafeString] = Memo("versioned", 4096)


@dataclass(frozen=True)
class Versioned:
    """Stands for the game in such a part: all it reads of it is the version."""

    version: Any = VERSION_MARK


def with_version(html: str, version: Any) -> SafeString:
    """``html`` rendered with ``Versioned``, the version put in where it goes
    (as ``{{ game.version }}`` renders it)."""
    return mark_safe(html.replace(VERSION_MARK, str(formats.localize(version))))


@register.simple_tag(takes_context=True)
def include_versioned(
    context: template.Context, template_name: str, version: Any, **values: Any
) -> SafeString:
    """``{% include_versioned "part.html" game.version name=value %}``: as
    ``include_memo``, for a part whose only use of the game is
    ``game.version``; ``csrf_token`` is passed on. Rendered for a request
    (with that person's CSRF token), it is not remembered."""
    token = context.get("csrf_token")
    if token != NO_CSRF_TOKEN:
        assert context.template is not None
        found = context.template.engine.get_template(template_name)
        part = {**values, "game": Versioned(version), "csrf_token": token}
        return mark_safe(found.render(context.new(part)))
    part = {**values, "game": Versioned(), "csrf_token": NO_CSRF_TOKEN}
    html = _remembered(VERSIONED_PARTS, context, template_name, part)
    return with_version(html, version)
