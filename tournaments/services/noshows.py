"""No-shows: a tournament seat whose first decision timed out went to a
bot (``Game.takeover_on_first_timeout``). Its player is withdrawn from
later rounds (they may rejoin before the next one), earns no points at that
table (the bot's place still counts for the others), and is barred from
joining other tournaments for ``TOURNAMENT_NO_SHOW_BAR_DAYS``."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Game
from tournaments.models import Bar, Entry, Result, Table
from tournaments.services.common import changed, lock_tournament


def record_no_shows(game: Game, user_ids: list[int]) -> int:
    """Inside the timeout's transaction: mark these players of ``game``'s
    table as no-shows (once each). Returns how many were new."""
    found = Table.objects.filter(game_id=game.pk).values_list("pk", "round__tournament_id").first()
    if found is None or not user_ids:
        return 0
    table_id, tournament_id = found
    t = lock_tournament(tournament_id)
    rows = Result.objects.filter(
        table_id=table_id, entry__user_id__in=user_ids, kind=Result.Kind.PLAYED
    ).select_related("entry")
    until = timezone.now() + timedelta(days=settings.TOURNAMENT_NO_SHOW_BAR_DAYS)
    count = 0
    for result in rows:
        result.kind = Result.Kind.NO_SHOW
        result.save(update_fields=["kind"])
        entry = result.entry
        entry.no_shows += 1
        if entry.status == Entry.Status.ACTIVE:
            entry.status = Entry.Status.NO_SHOW
        entry.save(update_fields=["no_shows", "status"])
        if settings.TOURNAMENT_NO_SHOW_BAR_DAYS:
            Bar.objects.create(user_id=entry.user_id, tournament=t, until=until)
        count += 1
    if count:
        changed(t)
    return count
