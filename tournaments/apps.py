from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.services.subscribers import subscribe
        from tournaments import subscribers

        subscribe(subscribers.SUBSCRIBER)
