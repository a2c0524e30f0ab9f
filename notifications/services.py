"""Creating notifications and sending their email. Everything here is safe to
run twice: a ``dedupe_key`` makes the second insert a no-op, a live "your
move" notice is one row per person and game updated in place, and its email
is claimed by compare-and-set before anything is sent."""

from __future__ import annotations

import functools
import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import lead_minutes
from games.models import Deadline, Game
from notifications import live
from notifications.live import unread_count
from notifications.models import LeadReminder, Notification

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
    due_at: Any = None,
) -> Notification | None:
    """Store a notification; None if this key was already stored. The row is
    kept even for users who hide in-site notifications: it is also the
    record that makes email go out once."""
    if not url and game_id is not None:
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
                due_at=due_at,
            )
    except IntegrityError:
        return None
    transaction.on_commit(lambda: live.push_unread(user_id))
    return note


def on_commit(user_id: int, game_id: int | None, kind: str, text: str, **kwargs: Any) -> None:
    """Notify once the surrounding write has committed."""
    transaction.on_commit(lambda: notify(user_id, game_id, kind, text, **kwargs))


def raise_turn_notice(
    user_id: int, game: Any, text: str, *, due_at: Any, email: bool, deadline_id: int | None = None
) -> bool:
    """The person's one live "your move" notice for ``game``, made or updated
    to this decision, unread again. Its email waits for the reader to have
    been away ``TURN_EMAIL_AWAY_MINUTES``, and goes once per away spell: the
    row keeps ``emailed`` until they act or open the game (which deletes it).

    With ``deadline_id``, only while that decision is still open. The game
    row is locked meanwhile, as a move locks it first: a move answering the
    decision (which deletes its row, then clears the notice) waits for this
    one instead of being overtaken by it. Returns whether it was raised."""
    now = timezone.now()
    fields = {"text": text[:300], "due_at": due_at, "read_at": None, "url": game.get_absolute_url()}
    with transaction.atomic():
        if deadline_id is not None:
            locked = Game.objects.select_for_update(no_key=True).filter(pk=game.pk)
            list(locked.values_list("pk", flat=True))
            if not Deadline.objects.filter(pk=deadline_id).exists():
                return False  # answered meanwhile
        note, made = Notification.objects.select_for_update().get_or_create(
            user_id=user_id, game_id=game.pk, kind=Notification.Kind.YOUR_TURN, defaults=fields
        )
        if not made:
            for name, value in fields.items():
                setattr(note, name, value)
        if email and not note.emailed and note.email_due_at is None:
            note.email_due_at = now + timedelta(minutes=settings.TURN_EMAIL_AWAY_MINUTES)
        note.save()
    transaction.on_commit(lambda: live.push_unread(user_id))
    return True


def clear_turn_notices(game_id: int, user_ids: list[int] | None = None) -> int:
    """Drop the live "your move" notices of ``game_id`` (of these people, or
    everyone's): they acted, opened the game, or it ended."""
    rows = Notification.objects.filter(game_id=game_id, kind=Notification.Kind.YOUR_TURN)
    if user_ids is not None:
        if not user_ids:
            return 0
        # One statement, without reading the rows first: a move clears the
        # notices of whoever has no decision left, and mostly finds none.
        # When some went, each person asked (a game's seats: few) is pushed
        # their count, unchanged for those who had none.
        deleted, _ = rows.filter(user_id__in=user_ids).delete()
        if deleted:
            for user_id in set(user_ids):
                transaction.on_commit(functools.partial(live.push_unread, user_id))
        return deleted
    cleared = list(rows.values_list("user_id", flat=True))
    if not cleared:
        return 0
    rows.delete()
    for user_id in set(cleared):
        transaction.on_commit(functools.partial(live.push_unread, user_id))
    return len(cleared)


def retract(user_id: int, dedupe_key: str) -> bool:
    """Delete a notice whose subject was undone (a withdrawn challenge), read
    or not, and push its reader's new unread count; False if there was none."""
    deleted, _ = Notification.objects.filter(user_id=user_id, dedupe_key=dedupe_key).delete()
    if deleted:
        transaction.on_commit(lambda: live.push_unread(user_id))
    return bool(deleted)


def plan_lead_reminders(user: Any, deadline: Any) -> int:
    """The reminders ``user`` asked for before ``deadline`` (those still
    ahead, and shorter than the decision's whole window); returns how many."""
    now = timezone.now()
    rows = []
    for minutes in lead_minutes(user):
        at = deadline.due_at - timedelta(minutes=minutes)
        if at <= now or at <= deadline.started_at:
            continue
        rows.append(
            LeadReminder(
                user_id=user.pk,
                game_id=deadline.game_id,
                deadline_id=deadline.pk,
                due_at=deadline.due_at,
                lead_minutes=minutes,
                remind_at=at,
            )
        )
    LeadReminder.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def lead_reminders_due(now: Any = None, limit: int = 500) -> list[int]:
    now = now or timezone.now()
    rows = LeadReminder.objects.filter(sent=False, remind_at__lte=now).order_by("remind_at")
    return list(rows.values_list("pk", flat=True)[:limit])


def claim_lead_reminder(reminder_id: int) -> LeadReminder | None:
    if not LeadReminder.objects.filter(pk=reminder_id, sent=False).update(sent=True):
        return None
    return LeadReminder.objects.filter(pk=reminder_id).first()


def turn_emails_due(now: Any = None, limit: int = 500) -> list[int]:
    now = now or timezone.now()
    rows = Notification.objects.filter(
        kind=Notification.Kind.YOUR_TURN, emailed=False, email_due_at__lte=now, read_at=None
    )
    return list(rows.order_by("email_due_at").values_list("pk", flat=True)[:limit])


def claim_turn_email(note_id: int) -> Notification | None:
    """Compare-and-set: only the caller that flips ``emailed`` sends it."""
    if not Notification.objects.filter(pk=note_id, emailed=False, read_at=None).update(
        emailed=True
    ):
        return None
    return Notification.objects.select_related("user", "game").filter(pk=note_id).first()


def put_off_turn_email(note_id: int) -> bool:
    """Its reader was at the game when its email was due: the email waits
    ``TURN_EMAIL_AWAY_MINUTES`` more, for the away spell that may follow."""
    later = timezone.now() + timedelta(minutes=settings.TURN_EMAIL_AWAY_MINUTES)
    return bool(
        Notification.objects.filter(pk=note_id, emailed=True).update(
            emailed=False, email_due_at=later
        )
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
