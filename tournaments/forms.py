"""The form that creates an event (``/tournaments/new``). It checks the
shape of what is asked; whether this person may ask it is
``tournaments.services``' to say."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.switches import PRESET_LABELS
from tournaments.models import Format, Series

TABLE_SIZES = [(n, str(n)) for n in range(2, 7)]
TURN_CHOICES = [
    (3600, _("1 hour")),
    (8 * 3600, _("8 hours")),
    (24 * 3600, _("1 day")),
    (2 * 24 * 3600, _("2 days")),
    (3 * 24 * 3600, _("3 days")),
    (7 * 24 * 3600, _("7 days")),
]
GAP_CHOICES = [
    (3600, _("1 hour")),
    (12 * 3600, _("12 hours")),
    (24 * 3600, _("1 day")),
    (3 * 24 * 3600, _("3 days")),
    (7 * 24 * 3600, _("7 days")),
]
# The fields that go to ``create_tournament`` as they are.
SETTINGS_FIELDS = (
    "name",
    "description",
    "format",
    "rounds",
    "table_size",
    "table_min",
    "table_max",
    "advance",
    "group_size",
    "group_final",
    "preset",
    "turn_seconds",
    "cap_days",
    "cap_turns",
    "rated",
    "round_gap_seconds",
    "max_players",
    "members_only",
    "starts_at",
)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial=Format.SWISS)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=20,
        initial=3,
        help_text=_("Swiss and round-robin. An elimination plays until its final table."),
    )
    table_size = forms.TypedChoiceField(
        label=_("Players a table"), choices=TABLE_SIZES, coerce=int, initial=4
    )
    table_min = forms.TypedChoiceField(
        label=_("Smallest table"), choices=TABLE_SIZES, coerce=int, initial=3
    )
    table_max = forms.TypedChoiceField(
        label=_("Largest table"),
        choices=TABLE_SIZES,
        coerce=int,
        initial=5,
        help_text=_("Odd numbers fill tables within these sizes; anyone left over gets a bye."),
    )
    advance = forms.IntegerField(
        label=_("Go through from each table"),
        min_value=1,
        max_value=5,
        initial=2,
        help_text=_("Elimination only."),
    )
    group_size = forms.IntegerField(
        label=_("Players a group"),
        min_value=0,
        max_value=64,
        initial=0,
        help_text=_("Round-robin only; 0 puts everyone in one group."),
    )
    group_final = forms.IntegerField(
        label=_("To the final from each group"),
        min_value=0,
        max_value=6,
        initial=0,
        help_text=_("Round-robin only; 0 plays no final."),
    )
    preset = forms.ChoiceField(
        label=_("Rules"), choices=list(PRESET_LABELS.items()), initial="us-2003"
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn timer"), choices=TURN_CHOICES, coerce=int, initial=24 * 3600
    )
    cap_days = forms.IntegerField(
        label=_("Game length cap, days"),
        min_value=0,
        max_value=30,
        initial=14,
        help_text=_("A game still going then ends, and places go by net worth. 0: no cap in days."),
    )
    cap_turns = forms.IntegerField(
        label=_("Game length cap, turns"),
        min_value=0,
        max_value=1000,
        initial=0,
        help_text=_("0: no cap in turns."),
    )
    rated = forms.BooleanField(label=_("Rated games"), required=False, initial=True)
    round_gap_seconds = forms.TypedChoiceField(
        label=_("Time between rounds"),
        choices=GAP_CHOICES,
        coerce=int,
        initial=24 * 3600,
        help_text=_("A round also waits until every game of the one before is over."),
    )
    max_players = forms.IntegerField(
        label=_("Most players"), min_value=2, max_value=1000, initial=100
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Registration closes and round 1 starts then (your time zone)."),
    )
    club = forms.TypedChoiceField(label=_("Club"), coerce=int, required=False, empty_value=None)
    members_only = forms.BooleanField(
        label=_("Only the club's members may see and join it"), required=False
    )
    every = forms.ChoiceField(label=_("Repeat"), required=False)

    def __init__(
        self, *args: Any, clubs: list[tuple[int, str]], recurring: bool, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if clubs:
            self.fields["club"].choices = [("", _("None: a public event")), *clubs]
        else:
            del self.fields["club"]
            del self.fields["members_only"]
        if recurring:
            self.fields["every"].choices = [("", _("Once")), *Series.Every.choices]
        else:
            del self.fields["every"]
        if not self.is_bound:
            soon = timezone.localtime() + timedelta(days=1)
            self.initial["starts_at"] = soon.replace(minute=0, second=0, microsecond=0)

    def clean_starts_at(self) -> Any:
        starts_at = self.cleaned_data["starts_at"]
        if starts_at <= timezone.now() + timedelta(minutes=5):
            raise forms.ValidationError(_("Choose a time at least a few minutes from now."))
        if starts_at > timezone.now() + timedelta(days=90):
            raise forms.ValidationError(_("Choose a time within the next 90 days."))
        return starts_at

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        size, lo, hi = data.get("table_size"), data.get("table_min"), data.get("table_max")
        if None not in (size, lo, hi) and not lo <= size <= hi:  # type: ignore[operator]
            self.add_error(
                "table_size",
                _("The table size must lie between the smallest and the largest table."),
            )
        if data.get("format") == Format.ELIMINATION and size is not None:
            advance = data.get("advance")
            if advance is not None and advance >= (lo or size):
                self.add_error(
                    "advance", _("Fewer must go through than sit at the smallest table.")
                )
        if data.get("members_only") and not data.get("club"):
            self.add_error("members_only", _("Only a club's event can be for its members."))
        if not data.get("cap_days") and not data.get("cap_turns"):
            self.add_error(
                "cap_days", _("A tournament game needs a length cap, in days or in turns.")
            )
        return data

    def settings(self) -> dict[str, Any]:
        data = self.cleaned_data
        fields = {name: data[name] for name in SETTINGS_FIELDS if name in data}
        fields.setdefault("members_only", False)
        return fields
