"""Creating notifications and sending their email. Everything here is safe to
run twice: a ``dedupe_key`` makes the second insert a no-op, and the email
throttle is claimed by compare-and-set before anything is sent."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from notifications import live
from notifications.live import unread_count
from notifications.models import EmailThrottle, Notification

logger = logging.getLogger(__name__)

__all__ = ["unread_count"]  # the navigation's count, kept with its live push


def notify(
    user_id: int,
    game_id: int | None,
    kind: str,
    text: str,
    *,
    url: str = "",
    dedupe_key: str | None = None,
) -> Notification | None:
    """Store a notification; None if this key was already stored. The row is
    kept even for users who hide in-site notifications: it is also the
    record that makes email go out once."""
    if not url and game_id is not None:
        from games.models import Game

        public_id = Game.objects.filter(pk=game_id).values_list("public_id", flat=True).first()
        url = f"/games/{public_id}/" if public_id else ""
    try:
        with transaction.atomic():
            note = Notification.objects.create(
                user_id=user_id,
                game_id=game_id,
                kind=kind,
                text=text[:300],
                url=url,
                dedupe_key=dedupe_key,
            )
    except IntegrityError:
        return None
    transaction.on_commit(lambda: live.push_unread(user_id))
    return note


def on_commit(user_id: int, game_id: int | None, kind: str, text: str, **kwargs: Any) -> None:
    """Notify once the surrounding write has committed."""
    transaction.on_commit(lambda: notify(user_id, game_id, kind, text, **kwargs))


def claim_email_slot(user_id: int, game_id: int, hours: float | None = None) -> bool:
    """At most one "your turn" email per player and game per N hours."""
    hours = settings.TURN_EMAIL_EVERY_HOURS if hours is None else hours
    now = timezone.now()
    EmailThrottle.objects.get_or_create(user_id=user_id, game_id=game_id)
    cutoff = now - timedelta(hours=hours)
    return bool(
        EmailThrottle.objects.filter(user_id=user_id, game_id=game_id)
        .filter(Q(last_sent_at__isnull=True) | Q(last_sent_at__lte=cutoff))
        .update(last_sent_at=now)
    )


def email(user: Any, subject: str, body: str) -> bool:
    if not user.email:
        return False
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])
    except Exception:
        logger.exception("Could not email user %s", user.pk)
        return False
    return True


def mark_all_read(user: Any) -> int:
    count = Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    if count:  # the person's other open pages drop their badge too
        transaction.on_commit(lambda: live.push_unread(user.pk))
    return count
