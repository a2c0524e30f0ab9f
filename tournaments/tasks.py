"""Tournament tasks: beat's sweep, and the due rows' ETA shortcut."""

from __future__ import annotations

from celery import shared_task

from notifications import push
from tournaments import sweep


@shared_task(ignore_result=True)
def sweep_tournaments() -> int:
    """Beat's sweep: the site's series, the series' due events, the due
    rows (registration closing, round starts). Returns how much it did."""
    done = sweep.ensure_site_series()
    for series_id in sweep.due_series_ids():
        done += sweep.run_series(series_id) is not None
    for due_id in sweep.due_ids():
        done += sweep.run_due(due_id)
    return done


@shared_task(ignore_result=True)
def run_due(due_id: int) -> bool:
    """The shortcut for one due row at its time (the sweep finds it anyway)."""
    return sweep.run_due(due_id)


@shared_task(ignore_result=True)
def push_notice(user_id: int, title: str, body: str, url: str) -> int:
    """Web Push a round's notice to each of the player's devices."""
    return push.send(user_id, title, body, url)
