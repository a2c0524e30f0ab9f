from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.services.subscribers import subscribe
        from ratings import subscribers

        subscribe(subscribers.SUBSCRIBER)
