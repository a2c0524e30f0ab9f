from __future__ import annotations

import pytest
from django.core.cache import cache
from django.utils.dateparse import parse_datetime

from monopoly_site.tasks import HEARTBEAT_KEY, heartbeat


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_heartbeat_task_runs_on_a_real_worker_through_the_broker(
    celery_worker_process: None,
) -> None:
    cache.delete(HEARTBEAT_KEY)
    result = heartbeat.apply_async()
    stamp = result.get(timeout=30)
    # The worker, a separate process, wrote the stamp to the shared Redis.
    assert cache.get(HEARTBEAT_KEY) == stamp
    assert parse_datetime(stamp) is not None
