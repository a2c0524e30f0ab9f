from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Social: friends, messages, moderation"
