"""Social tasks: what a request should not wait for."""

from __future__ import annotations

from celery import shared_task

from notifications import push


@shared_task(ignore_result=True)
def push_bell(user_id: int, title: str, body: str, url: str) -> int:
    """Web Push "X started a game" to each of the follower's devices."""
    return push.send(user_id, title, body, url)


@shared_task(ignore_result=True)
def push_message(user_id: int, title: str, body: str, url: str) -> int:
    """Web Push "a message from X" to each of the recipient's devices."""
    return push.send(user_id, title, body, url)
