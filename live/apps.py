from django.apps import AppConfig


class LiveConfig(AppConfig):
    """The sockets: pushes of every change (``live.pushes`` subscribes to the
    write path), presence and chat."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "live"

    def ready(self) -> None:
        from games.services.subscribers import subscribe
        from live import estimating, pushes, sessions

        sessions.connect_signals()
        subscribe(pushes.SUBSCRIBER)
        subscribe(estimating.SUBSCRIBER)
