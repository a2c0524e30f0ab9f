from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Social: friends, messages, moderation"

    def ready(self) -> None:
        from social.bell import subscribe_bell

        subscribe_bell()

        from games.services.subscribers import subscribe
        from social import collusion

        # After the commit, never in the move's way: a flag never blocks a trade.
        subscribe(collusion.SUBSCRIBER)
