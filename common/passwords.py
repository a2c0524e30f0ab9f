"""``password_changed``: a signal sent whenever an account's password changes.

Detected on the user model, not on a view, so that every path counts: the
settings' change, a reset by email, the admin, ``changepassword``. Sent from
``post_save``, in the saving transaction, with the user as ``instance``;
what must wait for the commit says so itself (``transaction.on_commit``).
Whoever holds a credential the old password stood behind listens: the live
sockets (``live.sessions``) and the API tokens (``api.tokens``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save, pre_save
from django.dispatch import Signal

password_changed = Signal()

_CHANGED = "_password_changed"


def _note(sender: Any, instance: Any, update_fields: Any, **kwargs: Any) -> None:
    if instance.pk is None:
        return
    if update_fields is not None and "password" not in update_fields:
        return  # e.g. the login's last_login update
    stored = sender._default_manager.filter(pk=instance.pk).values_list("password", flat=True)
    old = stored.first()
    setattr(instance, _CHANGED, old is not None and old != instance.password)


def _send(sender: Any, instance: Any, **kwargs: Any) -> None:
    if not getattr(instance, _CHANGED, False):
        return
    setattr(instance, _CHANGED, False)
    password_changed.send(sender=sender, instance=instance)


def connect_signals() -> None:
    """Idempotent: every app that listens calls it from its ``ready``."""
    user = get_user_model()
    pre_save.connect(_note, sender=user, dispatch_uid="common.passwords.pre_save")
    post_save.connect(_send, sender=user, dispatch_uid="common.passwords.post_save")
