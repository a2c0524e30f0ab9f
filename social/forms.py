from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class PrivacyForm(forms.ModelForm):  # type: ignore[type-arg]
    """Who may reach me, and the switch that hides every chat for me."""

    class Meta:
        model = User
        fields = ["challenge_from", "message_from", "chat_from", "no_chat"]
        labels = {
            "challenge_from": _("Who may challenge me"),
            "message_from": _("Who may message me"),
            "chat_from": _("Who may chat in my games"),
            "no_chat": _("No chat: hide every chat from me"),
        }
        help_texts = {
            "challenge_from": _("A challenge invites you to a seat in someone's game."),
            "message_from": _(
                "Private messages in your inbox. New accounts can only write to people who follow them."
            ),
            "chat_from": _(
                "In the games where you sit, you see the chat lines only of these "
                "people (your own lines always). They can still write; you just do not see it."
            ),
            "no_chat": _("Hides game and spectator chat from you on every page."),
        }
        widgets = {
            "challenge_from": forms.RadioSelect,
            "message_from": forms.RadioSelect,
            "chat_from": forms.RadioSelect,
        }
