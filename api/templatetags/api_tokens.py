"""``{% api_token_section %}``: the settings page's token section. A tag, so
that the settings page (``accounts``, a lower layer) shows the tokens
without importing the API."""

from __future__ import annotations

from typing import Any

from django import template

from api.forms import TokenForm
from api.models import ApiToken

register = template.Library()


@register.inclusion_tag("api/token_section.html", takes_context=True)
def api_token_section(context: Any) -> dict[str, Any]:
    user = context["request"].user
    return {
        "request": context["request"],
        "csrf_token": context.get("csrf_token"),
        "user": user,
        "token_form": TokenForm(user=user),
        "api_tokens": list(ApiToken.objects.filter(user=user, revoked_at__isnull=True)),
    }
