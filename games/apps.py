from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from games import writeguard

        connection_created.connect(writeguard.install, dispatch_uid="games.writeguard")

        from games import scheduling
        from games.services.subscribers import subscribe

        subscribe(scheduling.SUBSCRIBER)
