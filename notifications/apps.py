from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        from games.services.subscribers import subscribe
        from games.signals import game_opened
        from notifications import subscribers

        subscribe(subscribers.SUBSCRIBER)
        game_opened.connect(subscribers.game_opened, dispatch_uid="notifications.game_opened")
