from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse_lazy

from games.estimates import MAX_DELAY_MOVES as MAX_ANALYSIS_DELAY
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


# The site bots' pause before each move, by the pace the host chose.
BOT_DELAY_MS = {"paced": 1000, "instant": 0}


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
        # A changed timer refreshes the house rules: long turns pre-select
        # sealed-bid auctions (games.switches.switch_rows).
        widget=forms.Select(
            attrs={
                "hx-get": reverse_lazy("lobby_switches"),
                "hx-target": "#switches",
                "hx-swap": "outerHTML",
                "hx-trigger": "change",
                "hx-include": "closest form",
                "hx-vals": '{"keep": "1"}',
            }
        ),
        help_text=(
            "How long each player has for a decision before the default is taken. With an "
            "hour or more, the game's page offers standing orders that remove most waiting."
        ),
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
    rated_with_bots = forms.BooleanField(
        label="Rated even with bots",
        required=False,
        help_text="Bots then count as fixed-strength opponents. Otherwise games with bots are unrated.",
    )
    allow_bot_accounts = forms.BooleanField(
        label="Allow bot accounts",
        required=False,
        help_text="Bot accounts are people's programs playing through the API. Allowed, they "
        "may join and are rated with everyone; otherwise people and bot accounts never "
        "share a rated game.",
    )
    bot_speed = forms.ChoiceField(
        label="Site bots move",
        choices=[
            ("paced", "A second apart"),
            ("instant", "At once"),
        ],
        required=False,
        initial="paced",
        help_text="A second apart, each move can be followed; at once, their answers come "
        "with your move, for a quick game against bots or a program of yours playing them "
        "through the API.",
    )
    analysis_delay_moves = forms.IntegerField(
        label="Delay the spectators' win bar by (moves)",
        min_value=0,
        max_value=MAX_ANALYSIS_DELAY,
        required=False,
        initial=0,
        help_text="Spectators see each player's chance of winning this many moves late, so that "
        "none can pass it on to a player in time (0 to 50; players never see it during the game).",
    )
    time_bank_seconds = forms.TypedChoiceField(
        label="Time bank",
        choices=[(0, "None"), *TURN_TIMER_CHOICES[1:]],
        coerce=int,
        required=False,
        empty_value=None,
        initial=0,
        help_text="Board Game Arena style: a budget per player that each decision spends. "
        "None: the turn timer applies to every decision.",
    )
    time_bank_increment_seconds = forms.TypedChoiceField(
        label="Time bank credit per move",
        choices=[(0, "None"), (30, "30 seconds"), (60, "1 minute"), (300, "5 minutes"),
                 (3600, "1 hour"), (4 * 3600, "4 hours")],
        coerce=int,
        required=False,
        empty_value=None,
        initial=60,
        help_text="Added after each move, never above the bank's starting budget.",
    )  # fmt: skip
    claim_window_seconds = forms.TypedChoiceField(
        label="Rent-claim window",
        choices=[(3600, "1 hour"), (6 * 3600, "6 hours"), (24 * 3600, "24 hours")],
        coerce=int,
        required=False,
        empty_value=None,
        initial=6 * 3600,
        help_text="An owner who has not claimed by then forfeits the rent "
        "(earlier if the book's throw limit passes first).",
    )
    bid_window_seconds = forms.TypedChoiceField(
        label="Auction bid window",
        choices=[(60, "1 minute"), (15 * 60, "15 minutes"), (3600, "1 hour"),
                 (6 * 3600, "6 hours"), (24 * 3600, "1 day")],
        coerce=int,
        required=False,
        empty_value=None,
        initial=3600,
        help_text="Each bid reopens the window; the auction closes when it passes quietly.",
    )  # fmt: skip
    trade_expiry_seconds = forms.TypedChoiceField(
        label="Trade offers expire after",
        choices=[(3600, "1 hour"), (6 * 3600, "6 hours"), (24 * 3600, "1 day"),
                 (3 * 24 * 3600, "3 days")],
        coerce=int,
        required=False,
        empty_value=None,
        initial=24 * 3600,
    )  # fmt: skip
    takeover_after = forms.TypedChoiceField(
        label="Bot takes over after",
        choices=[(0, "Never"), (2, "2 timeouts in a row"), (3, "3 timeouts in a row"),
                 (5, "5 timeouts in a row")],
        coerce=int,
        required=False,
        empty_value=None,
        initial=3,
        help_text="The player can reclaim the seat from the game page.",
    )  # fmt: skip
    time_limit_seconds = forms.TypedChoiceField(
        label="Game time limit",
        choices=[(0, "None"), (3600, "1 hour"), (24 * 3600, "1 day"), (7 * 24 * 3600, "1 week")],
        coerce=int,
        required=False,
        empty_value=None,
        initial=0,
        help_text="Time-limit rules only: the game ends then and is valued per the rules.",
    )

    TIMER_FIELDS = (
        "time_bank_seconds",
        "time_bank_increment_seconds",
        "claim_window_seconds",
        "bid_window_seconds",
        "trade_expiry_seconds",
        "takeover_after",
        "time_limit_seconds",
    )

    def main_fields(self) -> list[Any]:
        return [f for f in self if f.name not in self.TIMER_FIELDS]

    def timer_fields(self) -> list[Any]:
        return [self[name] for name in self.TIMER_FIELDS]

    def timer_errors(self) -> bool:
        return any(self[name].errors for name in self.TIMER_FIELDS)

    def create_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "preset": data["preset"],
            "max_seats": data["max_seats"],
            "turn_seconds": data["turn_seconds"],
            "is_public": data["visibility"] == "public",
            "auto_start": data["auto_start"],
            "rated_with_bots": data.get("rated_with_bots", False),
            "allow_bot_accounts": data.get("allow_bot_accounts", False),
            "analysis_delay_moves": data.get("analysis_delay_moves") or 0,
            "bot_delay_ms": BOT_DELAY_MS[data.get("bot_speed") or "paced"],
            # Left out of a post (older forms, scripts): the model's defaults.
            "timers": {
                name: data[name] for name in self.TIMER_FIELDS if data.get(name) is not None
            },
        }


class StandingOrdersForm(forms.Form):
    """A player's standing orders for one game (``games.standing_orders``)."""

    claim_rent = forms.BooleanField(label="Claim rent automatically", required=False)
    buy = forms.BooleanField(label="Buy unowned property automatically", required=False)
    buy_min_cash_left = forms.IntegerField(
        label="…when I keep at least", min_value=0, required=False, initial=200
    )
    auction = forms.ChoiceField(
        label="In auctions",
        choices=[
            ("", "Ask me"),
            ("pass", "Always pass"),
            ("printed", "Bid up to the printed price"),
            ("upto", "Bid up to an amount"),
        ],
        required=False,
    )
    auction_max = forms.IntegerField(label="Bid up to", min_value=0, required=False)
    jail = forms.ChoiceField(
        label="When jailed",
        choices=[
            ("", "Ask me"),
            ("card", "Use a Get Out of Jail Free card"),
            ("pay", "Pay the fine"),
            ("roll", "Roll for doubles"),
        ],
        required=False,
    )
    auto_roll = forms.BooleanField(
        label="Roll automatically when rolling is my only decision", required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        initial = kwargs.get("initial")
        if initial is not None:
            kwargs["initial"] = {**initial, "buy": initial.get("buy_min_cash_left") is not None}
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("auction") == "upto" and data.get("auction_max") is None:
            self.add_error("auction_max", "Say how high to bid.")
        if data.get("buy") and data.get("buy_min_cash_left") is None:
            self.add_error("buy_min_cash_left", "Say how much cash to keep.")
        return data

    def orders(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "claim_rent": data["claim_rent"],
            "buy_min_cash_left": data["buy_min_cash_left"] if data["buy"] else None,
            "auction": data["auction"],
            "auction_max": data["auction_max"] or 0,
            "jail": data["jail"],
            "auto_roll": data["auto_roll"],
        }


class VacationForm(forms.Form):
    days = forms.IntegerField(label="Days of vacation", min_value=1, max_value=366, initial=7)
