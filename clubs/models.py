"""Clubs: a name, members and leaders, a membership policy, a chat.

Clubs sit above ``social`` and below ``tournaments`` (docs/architecture.md): a
club's chat is moderated with the social layer's tools (blocks, mutes, the word
filter, reports into the site's one queue), and a club's tournaments are read
through the relation ``tournaments`` declares (``club.tournaments``), so that
nothing here imports upward.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

USER = settings.AUTH_USER_MODEL


class Club(models.Model):
    class Policy(models.TextChoices):
        OPEN = "open", _("Open: anyone may join")
        REQUEST = "request", _("By request: leaders accept")
        INVITE = "invite", _("By invitation only")

    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=60, unique=True)
    # The name folded for look-alike checks (the same folding as user names),
    # so that "C1ub" cannot pass for "Club".
    name_key = models.CharField(max_length=60, unique=True)
    # Its shape, case kept, as user names have one too: "PIace" (a capital
    # I) meets "Place" here though their folded keys differ (clubs.naming).
    shape_key = models.CharField(max_length=60, unique=True, null=True, blank=True)
    description = models.TextField(max_length=2000, blank=True)
    policy = models.CharField(max_length=8, choices=Policy.choices, default=Policy.OPEN)
    created_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="clubs_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped with every change of the chat (a line posted, deleted, a member
    # muted): the chat pane's ``data-version``.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """One row per club and person: a member, a leader, a request, an
    invitation or a ban (a ban keeps the row, so the person cannot rejoin)."""

    class Status(models.TextChoices):
        MEMBER = "member", _("Member")
        REQUESTED = "requested", _("Asked to join")
        INVITED = "invited", _("Invited")
        BANNED = "banned", _("Banned")

    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        LEADER = "leader", _("Leader")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="club_memberships")
    status = models.CharField(max_length=10, choices=Status.choices)
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    invited_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A leader's mute of this member in the club's chat only.
    chat_muted_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_membership_once"),
            models.CheckConstraint(
                condition=Q(role="member") | Q(status="member"), name="club_leader_is_member"
            ),
        ]
        indexes = [models.Index(fields=["user", "status"], name="club_membership_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id}: {self.status}"

    @property
    def chat_muted(self) -> bool:
        """A leader's mute of this member runs now."""
        until = self.chat_muted_until
        return until is not None and until > timezone.now()


class ChatLine(models.Model):
    """A line of a club's chat. A leader's deletion hides it and keeps it (a
    report already filed holds its own copy as evidence)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="chat_lines")
    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="club_chat_lines")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    deleted_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["club", "-id"], name="club_chat_recent_idx")]

    def __str__(self) -> str:
        return f"{self.club_id}/{self.pk}"
