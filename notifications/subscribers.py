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
from games.models import Game, Seat
from games.services.subscribers import Subscriber
from games.services.timers import look_again, look_again_for
from games.services.write import Committed, Notice
from live import presence
from notifications import services
from notifications.tasks import notify_your_turn

logger = logging.getLogger(__name__)


def in_transaction(record: Committed) -> None:
    """The first look at a new decision's player, in the write that raised
    it, when every player it concerns is at the game (a visible page or an
    API stream): their rows are put off to be looked at again a recheck
    period later and their notices cleared, as ``decisions.your_turn``
    would do, so that no task is queued for people who are watching. The
    look commits or rolls back with the move. When anyone is to be told
    now, or presence cannot be read, the task after the commit looks at
    them all (and reads presence again then); beat's sweep stays the net."""
    if not record.turn_notices or record.seats is None or record.deadlines is None:
        return
    if record.game.status != Game.Status.ACTIVE:
        return
    now = timezone.now()
    due = [
        d
        for d in record.deadlines
        if d.player >= 0 and d.notice_at is not None and d.notice_at <= now
    ]
    looked_at: set[int] = set()
    if due:
        here = presence.looking(record.game_id)
        if here is None or any(d.player not in here for d in due):
            return
        later = now + timedelta(seconds=settings.TURN_NOTICE_RECHECK_SECONDS)
        look_again([d.pk for d in due], later, if_due_by=now)
        for d in due:
            d.notice_at = later
        looked_at = {d.player for d in due}
    waiting = {d.player for d in record.deadlines if d.player >= 0}
    stale = [
        s.user_id
        for s in record.seats
        if s.user_id is not None
        and s.status == Seat.Status.PLAYING
        and not s.taken_over
        and (s.number not in waiting or s.number in looked_at)
    ]
    services.clear_turn_notices(record.game_id, stale)
    record.turn_notices = False


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


SUBSCRIBER = Subscriber("notices", on_commit=on_commit, in_transaction=in_transaction)


def game_opened(sender: Any, game: Any, user: Any, **kwargs: Any) -> None:
    """Opening the game answers its "your move" notice: the page says it all.
    Their open decisions are looked at again a little later, so that leaving
    the page with one still open tells them again."""
    services.clear_turn_notices(game.pk, [user.pk])
    if game.status == game.Status.ACTIVE:
        later = timezone.now() + timedelta(seconds=settings.TURN_NOTICE_RECHECK_SECONDS)
        look_again_for(game.pk, user.pk, later)
