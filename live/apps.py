from django.apps import AppConfig


class LiveConfig(AppConfig):
    """Chat and presence around a game; the pushes themselves live in
    ``games.web.broadcast`` and ``games.consumers``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "live"

    def ready(self) -> None:
        from live import sessions

        sessions.connect_signals()
