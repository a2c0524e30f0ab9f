from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import native

        # A build of older sources would run older rules without a sign.
        if native.status() == "stale":
            raise ImproperlyConfigured(native.stale_message())
