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
from typing import Any

from django import template
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
    frozen = _key(values)
    key = None
    if frozen is not None:
        key = (template_name, context.autoescape, context.use_l10n, get_language(), frozen)
        html = RENDERS.get(key)
        if html is not None:
            return html
    assert context.template is not None  # set while a template renders
    found = context.template.engine.get_template(template_name)
    html = mark_safe(found.render(context.new(values)))
    if key is not None:
        RENDERS.put(key, html)
    return html
