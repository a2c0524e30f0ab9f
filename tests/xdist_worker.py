"""Loaded with ``-p`` by ``make test`` (monopoly_site.localservices), so
before pytest-django reads the settings: each pytest-xdist worker gets Redis keys, Celery queues
and channel groups of its own, as its database gets pytest-django's ``_gwN``
suffix. The workers and Daphnes a test starts inherit the prefix, and take
their ports, logs and beat schedules by process id."""

from __future__ import annotations

import os

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker:
    _run = (
        os.environ.get("REDIS_PREFIX")
        or "monopoly-test-" + os.environ.get("PYTEST_XDIST_TESTRUNUID", "")[:8]
    )
    os.environ["REDIS_PREFIX"] = f"{_run}-{_worker}"
