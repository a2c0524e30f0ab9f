from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "monopoly_site.settings")

app = Celery("monopoly_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def close_old_connections(sender: Any = None, **kwargs: Any) -> None:
    """Around each task, what Django does around each request: close a
    connection that is broken, left in a transaction, or older than
    CONN_MAX_AGE, and keep the others (see CELERY_DB_REUSE_MAX)."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections as close

    close()
