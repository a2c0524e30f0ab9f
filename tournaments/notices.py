"""A round starts: each seated player gets one notice leading to their
table's game ("Round 3 starts: your table"), a player with a bye one
saying so. Stored once (a dedupe key per event, round and person), so a
repeated call adds nothing; Web Push goes only to those with no page of the
site open, as for the site's other notices."""

from __future__ import annotations

import logging

from celery import current_app
from django.urls import reverse
from django.utils.translation import gettext as _

from common import redis_health
from live import presence
from notifications import push
from notifications.models import Notification
from notifications.services import notify
from tournaments.models import Result, Round

logger = logging.getLogger(__name__)

KIND = Notification.Kind.TOURNAMENT


def tournament_url(tournament_id: int) -> str:
    return reverse("tournament", args=[tournament_id])


def round_started(tournament_id: int, number: int) -> int:
    """After the round's commit: tell its players. Returns how many notices
    were new."""
    rnd = (
        Round.objects.select_related("tournament")
        .filter(tournament_id=tournament_id, number=number)
        .first()
    )
    if rnd is None:
        return 0
    name = rnd.tournament.name
    told = 0
    results = Result.objects.filter(round=rnd).select_related("table__game", "entry")
    for result in results:
        user_id = result.entry.user_id
        if result.table is not None and result.table.game is not None:
            game = result.table.game
            text = _("Round %(n)s of %(name)s starts: your table.") % {"n": number, "name": name}
            url, game_id = game.get_absolute_url(), game.pk
        elif result.kind == Result.Kind.BYE:
            text = _("Round %(n)s of %(name)s: you have a bye.") % {"n": number, "name": name}
            url, game_id = tournament_url(tournament_id), None
        else:
            continue
        key = f"tournament:{tournament_id}:{number}:{user_id}"
        if notify(user_id, game_id, KIND, text, url=url, dedupe_key=key) is None:
            continue
        told += 1
        _web_push(user_id, name, text, url)
    return told


def _web_push(user_id: int, title: str, text: str, url: str) -> None:
    if not push.enabled() or presence.person_online(user_id):
        return
    try:
        with redis_health.guarded():
            current_app.send_task(
                "tournaments.tasks.push_notice", args=(user_id, title, text, url),
                ignore_result=True,
            )  # fmt: skip
    except Exception:
        logger.exception("Could not enqueue the round push to user %s", user_id)
