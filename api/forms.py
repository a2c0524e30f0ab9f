from __future__ import annotations

from typing import Any

from django import forms

from api.models import SCOPES
from api.tokens import NAME_LENGTH, default_scopes, scopes_for

SCOPE_CHOICES = [
    ("play", "play: create, join and play games (people's accounts)"),
    ("read", "read: see your games and the games you may watch"),
    ("bot", "bot: read and play, for a bot account"),
]
assert [c for c, _ in SCOPE_CHOICES] == list(SCOPES)


class TokenForm(forms.Form):
    """Offers only the scopes the user may have: ``play`` to a person's
    account, ``bot`` to a bot account (``api.tokens.scopes_for``)."""

    name = forms.CharField(
        max_length=NAME_LENGTH, required=False, help_text="To tell your tokens apart."
    )
    scopes = forms.MultipleChoiceField(choices=SCOPE_CHOICES, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        allowed = scopes_for(user)
        field = self.fields["scopes"]
        field.choices = [(c, label) for c, label in SCOPE_CHOICES if c in allowed]  # type: ignore[attr-defined]
        field.initial = default_scopes(user)
        field.error_messages["invalid_choice"] = (
            "Choose among the scopes offered: bot is only for bot accounts, "
            "and a bot account plays with bot, not play."
        )
