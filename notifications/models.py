"""In-site notifications (and the record that their email went out)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    """A notice to one person. "Your move" (``YOUR_TURN``) is live: one row per
    person and game, updated in place as the decision changes and deleted
    when they act or open the game, so the unread count counts games that
    wait for them rather than events."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your move"
        REMINDER = "reminder", "Reminder"
        TIMEOUT = "timeout", "Timed out"
        TAKEOVER = "takeover", "Seat taken over"
        CLAIM_EXPIRED = "claim_expired", "Rent claim expired"
        DIGEST = "digest", "Digest"
        CHALLENGE = "challenge", "Challenge"
        CHALLENGE_ANSWERED = "challenge_answered", "Challenge answered"
        # "Tell me when they start a game" (social.bell): one a day per person followed.
        FOLLOWED_STARTED = "followed_started", _("A player you follow started a game")
        # A warning, or what came of a report (social.moderation).
        MODERATION = "moderation", _("Moderation")
        # A tournament round starts: your table, or your bye (tournaments.notices).
        TOURNAMENT = "tournament", _("Tournament round")
        # A club's invitation, a request to join for its leaders, an acceptance (clubs.notices).
        CLUB = "club", _("Club")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=200, blank=True)
    # Sending twice is harmless only if the second insert is refused.
    dedupe_key = models.CharField(max_length=120, null=True, blank=True, unique=True)
    emailed = models.BooleanField(default=False)
    # The decision's deadline, shown on the reader's own clock ("by Fri 18:00").
    due_at = models.DateTimeField(null=True, blank=True)
    # A live notice's email waits until its reader has been away this long
    # (``TURN_EMAIL_AWAY_MINUTES``); beat's sweep sends it if still unread.
    email_due_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            models.Index(
                fields=["user", "-created_at"],
                name="notification_unread_idx",
                condition=Q(read_at__isnull=True),
            ),
            models.Index(fields=["user", "-created_at"], name="notification_user_idx"),
            models.Index(
                fields=["email_due_at"],
                name="notification_email_due_idx",
                condition=Q(email_due_at__isnull=False, emailed=False),
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"],
                condition=Q(kind="your_turn"),
                name="one_live_turn_notice_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.text}"


class PushSubscription(models.Model):
    """One device's Web Push subscription (its browser's push service URL
    and the keys that encrypt what is sent to it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    device = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.device or self.endpoint[:40]}"


class LeadReminder(models.Model):
    """A reminder a player asked for, this long before a decision's deadline
    (``User.reminder_leads``). Made when the decision's "your move" notice
    is raised; sent by beat's notice sweep if the decision is still open."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    # Not a foreign key: the services delete deadline rows with plain SQL,
    # and a sent reminder checks that its decision still stands.
    deadline_id = models.BigIntegerField()
    due_at = models.DateTimeField()
    lead_minutes = models.PositiveIntegerField()
    remind_at = models.DateTimeField()
    sent = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["deadline_id", "lead_minutes"], name="one_lead_reminder_per_lead"
            ),
        ]
        indexes = [
            models.Index(
                fields=["remind_at"], name="lead_reminder_due_idx", condition=Q(sent=False)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.game_id}: {self.lead_minutes} min before {self.due_at}"
