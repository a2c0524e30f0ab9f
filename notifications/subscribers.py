"""Notices owed by a write (``games.services.subscribers``), sent once it
has committed."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common import redis_health
from games.services.subscribers import Subscriber
from games.services.timers import look_again_for
from games.services.write import Committed, Notice
from notifications import services
from notifications.tasks import notify_your_turn

logger = logging.getLogger(__name__)


def on_commit(record: Committed) -> None:
    for notice in record.notices:
        _store(record, notice)
    for user_id, dedupe_key in record.retracted:
        services.retract(user_id, dedupe_key)
    if record.turn_notices:
        # The deadline rows say whom to look at (``notice_at``):
        # the task is the shortcut, beat's sweep (``turn_notices_due``) the net.
        try:
            with redis_health.guarded():
                notify_your_turn.delay(record.game_id)
        except Exception:
            logger.exception("Could not enqueue the turn notice of game %s", record.game_id)


def _store(record: Committed, notice: Notice) -> None:
    # The check and the insert in one transaction: a notice whose subject is
    # undone meanwhile (its lock taken first) is not stored, and one stored
    # first is there for the undoing write's own retraction to delete.
    with transaction.atomic():
        if notice.still_due is not None and not notice.still_due():
            return
        services.notify(
            notice.user_id,
            record.game_id,
            notice.kind,
            notice.text,
            url=notice.url,
            dedupe_key=notice.dedupe_key,
        )


SUBSCRIBER = Subscriber("notices", on_commit=on_commit)


def game_opened(sender: Any, game: Any, user: Any, **kwargs: Any) -> None:
    """Opening the game answers its "your move" notice: the page says it all.
    Their open decisions are looked at again a little later, so that leaving
    the page with one still open tells them again."""
    services.clear_turn_notices(game.pk, [user.pk])
    if game.status == game.Status.ACTIVE:
        later = timezone.now() + timedelta(seconds=settings.TURN_NOTICE_RECHECK_SECONDS)
        look_again_for(game.pk, user.pk, later)
