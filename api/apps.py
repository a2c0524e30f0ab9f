from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from api import listeners, tokens
        from games.services.subscribers import subscribe

        subscribe(listeners.SUBSCRIBER)
        tokens.connect_signals()
