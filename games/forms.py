from __future__ import annotations

from typing import Any

from django import forms

from games.switches import PRESET_LABELS

TURN_TIMER_CHOICES = [
    (60, "1 minute"),
    (5 * 60, "5 minutes"),
    (15 * 60, "15 minutes"),
    (3600, "1 hour"),
    (8 * 3600, "8 hours"),
    (24 * 3600, "1 day"),
    (2 * 24 * 3600, "2 days"),
    (3 * 24 * 3600, "3 days"),
]


def timer_label(seconds: int) -> str:
    for value, label in TURN_TIMER_CHOICES:
        if value == seconds:
            return label
    if seconds % 86400 == 0:
        return f"{seconds // 86400} days"
    if seconds % 3600 == 0:
        return f"{seconds // 3600} hours"
    return f"{max(1, seconds // 60)} minutes"


class CreateGameForm(forms.Form):
    preset = forms.ChoiceField(
        label="Rules", choices=list(PRESET_LABELS.items()), initial="us-2003"
    )
    max_seats = forms.TypedChoiceField(
        label="Seats",
        choices=[(n, str(n)) for n in range(2, 9)],
        coerce=int,
        initial=4,
        help_text="2 to 8 players (the UK rules allow at most 6).",
    )
    turn_seconds = forms.TypedChoiceField(
        label="Turn timer",
        choices=TURN_TIMER_CHOICES,
        coerce=int,
        initial=24 * 3600,
        help_text="How long each player has for a decision before the default is taken.",
    )
    visibility = forms.ChoiceField(
        label="Who can join",
        choices=[
            ("public", "Anyone, from the lobby"),
            ("private", "Only people with the invite link"),
        ],
        initial="public",
        widget=forms.RadioSelect,
    )
    auto_start = forms.BooleanField(
        label="Start automatically when every seat is taken", required=False
    )

    def create_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "preset": data["preset"],
            "max_seats": data["max_seats"],
            "turn_seconds": data["turn_seconds"],
            "is_public": data["visibility"] == "public",
            "auto_start": data["auto_start"],
        }
