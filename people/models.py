"""Who follows, blocks and mutes whom, and what has been reported.

This package sits just above ``common`` and below ``games`` (docs/architecture.md),
so that the games' write path, the chat and the notices can all ask it whether
one person may reach another. It knows users only as ``settings.AUTH_USER_MODEL``.
The privacy choices and a person's moderation standing are fields of the user
(``accounts.User``): ``challenge_from``, ``message_from``, ``chat_from``,
``no_chat``, ``chat_timeout_until``, ``shadow_muted``, ``rated_suspended``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

USER = settings.AUTH_USER_MODEL


class Audience(models.TextChoices):
    """Who may reach a person one way (challenge, message, chat in their games)."""

    EVERYONE = "everyone", _("Everyone")
    FOLLOWING = "following", _("People I follow")
    NOBODY = "nobody", _("Nobody")


class Follow(models.Model):
    """One-way: ``follower`` follows ``followed``; two of these make friends."""

    follower = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="following_rows")
    followed = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="follower_rows")
    # "Tell me when they start a game" (coalesced to one notice a day).
    bell = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]
        indexes = [models.Index(fields=["followed", "follower"], name="follow_followed_idx")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no challenges, messages or joins from
    them, and their chat hidden from the blocker. Private: never shown to the
    blocked person, whose answers read as a privacy refusal."""

    blocker = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="block_rows")
    blocked = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="blocked_by_rows")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_blocked_idx")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Mute(models.Model):
    """``muter`` does not see ``muted``'s chat; nothing else changes."""

    muter = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="mute_rows")
    muted = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="muted_by_rows")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="mute_once"),
            models.CheckConstraint(condition=~Q(muter=F("muted")), name="mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class Case(models.Model):
    """The reports against one person, worked by one moderator at a time.
    At most one case per person is not closed: new reports join it."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLAIMED = "claimed", _("Claimed")
        CLOSED = "closed", _("Closed")

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="mod_cases")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    claimed_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="claimed_cases"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        permissions = [("moderate", "Can work the moderation queue")]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=~Q(status="closed"), name="one_live_case_per_user"
            )
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="case_status_idx")]

    def __str__(self) -> str:
        return f"case {self.pk} ({self.status}) of user {self.user_id}"


class Report(models.Model):
    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abuse")
        SPAM = "spam", _("Spam")
        NAME = "name", _("Offensive name")
        COLLUSION = "collusion", _("Collusion or boosting")
        STALLING = "stalling", _("Stalling")
        OTHER = "other", _("Other")

    class Source(models.TextChoices):
        PROFILE = "profile", _("Profile")
        CHAT = "chat", _("Chat line")
        MESSAGE = "message", _("Message")
        GAME = "game", _("Game")
        TRADE = "trade", _("Trade")
        FILTER = "filter", _("Chat filter")
        COLLUSION_CHECK = "collusion_check", _("Collusion check")
        CLUB_CHAT = "club_chat", _("Club chat line")

    class Outcome(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACTIONED = "actioned", _("Action taken")
        DISMISSED = "dismissed", _("No action")

    # None for a report the site filed by itself (chat filter, collusion check).
    reporter = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports_made"
    )
    reported = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="reports_against")
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="reports")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    source = models.CharField(max_length=16, choices=Source.choices)
    text = models.CharField(max_length=500, blank=True)
    # The evidence as it was when reported (chat lines with context, the
    # message, the game and move): later edits and deletions do not change it.
    evidence = models.JSONField(default=dict, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["reported", "created_at"], name="report_reported_idx"),
            models.Index(fields=["reporter", "outcome"], name="report_reporter_idx"),
        ]

    def __str__(self) -> str:
        return f"report {self.pk}: {self.reason} against {self.reported_id}"

    @property
    def auto(self) -> bool:
        return self.reporter_id is None


class ModAction(models.Model):
    """The audit log: every moderation action, by whom, why and when."""

    class Kind(models.TextChoices):
        CLAIM = "claim", _("Claimed the case")
        RELEASE = "release", _("Released the case")
        WARN = "warn", _("Warning")
        TIMEOUT = "timeout", _("Chat timeout")
        SHADOW_MUTE = "shadow_mute", _("Shadow mute")
        SUSPEND_RATED = "suspend_rated", _("Suspension from rated play")
        CLOSE_ACCOUNT = "close", _("Account closed")
        DISMISS = "dismiss", _("Dismissed")
        LIFT = "lift", _("Restrictions lifted")

    moderator = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="mod_actions_taken"
    )
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="mod_actions")
    case = models.ForeignKey(
        Case, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    reason = models.CharField(max_length=500, blank=True)
    hours = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "-created_at"], name="modaction_user_idx")]

    def __str__(self) -> str:
        return f"{self.kind} on {self.user_id} by {self.moderator_id}"
