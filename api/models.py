"""Personal API tokens and the answers kept for idempotent retries."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models

SCOPE_PLAY = "play"
SCOPE_READ = "read"
SCOPE_BOT = "bot"
SCOPES = (SCOPE_PLAY, SCOPE_READ, SCOPE_BOT)


class ApiToken(models.Model):
    """A bearer token: ``mnp_<prefix>_<secret>``. Only the prefix (for the
    lookup) and the SHA-256 of the whole token are stored; the token itself
    is shown once, when it is made (``api.tokens.issue``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60, blank=True)
    scopes = models.JSONField(default=list, help_text="Among play, read and bot.")
    prefix = models.CharField(max_length=16, unique=True)
    digest = models.CharField(max_length=64, help_text="SHA-256 of the whole token, in hex.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name or 'token'} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class IdempotentAnswer(models.Model):
    """The first answer to a POST with an ``Idempotency-Key``: one row per
    (user, key), inserted in the move's own transaction, so a row means the
    move was applied exactly once (a duplicate that got past the game's
    version check meets the unique constraint, and its move rolls back)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=255)
    game_public_id = models.CharField(max_length=16)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the request body.")
    status = models.PositiveSmallIntegerField(null=True, blank=True, help_text="None: in flight.")
    body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["user", "key"], name="api_idempotency_key_unique")
        ]
        indexes: ClassVar = [models.Index(fields=["created_at"], name="api_idem_created_idx")]

    def __str__(self) -> str:
        return f"{self.key} ({self.user_id})"
