from __future__ import annotations

from typing import Any

from allauth.account.forms import ChangePasswordForm, LoginForm, ResetPasswordKeyForm
from django import forms
from django.conf import settings
from django.utils.translation import ngettext

from accounts.models import REMINDER_LEADS, User, lead_minutes, time_zone_choices, valid_zone


class SettingsForm(forms.ModelForm):  # type: ignore[type-arg]
    time_zone = forms.ChoiceField(choices=time_zone_choices, label="Time zone", required=False)
    reminder_leads = forms.TypedMultipleChoiceField(
        choices=REMINDER_LEADS,
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Also remind me before each deadline",
        help_text="By notice, and by email if email is on; never while the game is open.",
    )

    class Meta:
        model = User
        fields = [
            "display_name",
            "email_notifications",
            "notify_reminders",
            "notify_in_site",
            "reminder_leads",
            "notify_digest",
            "time_zone",
        ]
        labels = {
            "display_name": "Display name",
            "email_notifications": "Email when it is my move",
            "notify_reminders": "Reminders at 80% of a decision's time",
            "notify_in_site": "Notifications on the site",
            "notify_digest": "Daily digest email",
        }
        help_texts = {"display_name": "Shown to other players instead of your username."}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance is not None and not self.is_bound:
            self.initial["reminder_leads"] = lead_minutes(self.instance)
        hour = settings.DIGEST_HOUR
        self.fields["notify_digest"].help_text = (
            f"Email me a list of the games awaiting my move each day at {hour:02d}:00 "
            "in my time zone (below)."
        )

    def clean_reminder_leads(self) -> str:
        return ",".join(
            str(m) for m in sorted(set(self.cleaned_data["reminder_leads"]), reverse=True)
        )

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"].strip()
        if name and any(ch in name for ch in "<>\n\r\t"):
            raise forms.ValidationError("Display names cannot contain <, > or line breaks.")
        return name

    def clean_time_zone(self) -> str:
        name: str = self.cleaned_data["time_zone"] or ""
        if name and valid_zone(name) is None:
            raise forms.ValidationError("Choose a time zone from the list.")
        return name


class SiteLoginForm(LoginForm):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "Username or email"
        self.fields["login"].widget.attrs["placeholder"] = "Username or email"


def warn_of_token_revocation(form: forms.Form, user: Any) -> None:
    """A new password revokes the account's API tokens (``api.tokens``):
    the form says so before it is sent."""
    live = user.api_tokens.filter(revoked_at__isnull=True).count() if user else 0
    if live:
        form.fields["password1"].help_text = ngettext(
            "Changing your password also revokes your API token: programs that use it "
            "will need a new one, made on the settings page.",
            "Changing your password also revokes your %(count)d API tokens: programs "
            "that use them will need new ones, made on the settings page.",
            live,
        ) % {"count": live}


class SiteChangePasswordForm(ChangePasswordForm):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        warn_of_token_revocation(self, self.user)


class SiteResetPasswordKeyForm(ResetPasswordKeyForm):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        warn_of_token_revocation(self, self.user)
