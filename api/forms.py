from __future__ import annotations

from django import forms

from api.models import SCOPES
from api.tokens import NAME_LENGTH

SCOPE_CHOICES = [
    ("play", "play: create, join and play games"),
    ("read", "read: see your games and the games you may watch"),
    ("bot", "bot: reserved for bot accounts"),
]
assert [c for c, _ in SCOPE_CHOICES] == list(SCOPES)


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=NAME_LENGTH, required=False, help_text="To tell your tokens apart."
    )
    scopes = forms.MultipleChoiceField(
        choices=SCOPE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        initial=["read", "play"],
    )
