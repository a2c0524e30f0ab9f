from typing import Any

from django.apps import AppConfig


class LiveConfig(AppConfig):
    """The sockets: pushes of every change (``live.pushes`` subscribes to the
    write path), presence and chat."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "live"

    def ready(self) -> None:
        from games.services.subscribers import subscribe
        from live import estimating, pushes, sessions
        from people import signals

        sessions.connect_signals()
        subscribe(pushes.SUBSCRIBER)
        subscribe(estimating.SUBSCRIBER)
        signals.hidden_changed.connect(refresh_chat, dispatch_uid="live.refresh_chat")


def refresh_chat(sender: Any, user_id: int, **kwargs: Any) -> None:
    """Someone blocked, muted or let someone back (sent after commit): their
    open game pages filter the chat afresh (``live.consumers``)."""
    import logging

    from live import groups

    try:
        groups.send([(groups.person_group(user_id), {"type": "chat.refresh"})])
    except Exception:
        # The block is stored: a page shows it from its next load.
        logging.getLogger(__name__).exception("Could not refresh the chat of user %s", user_id)
