"""The "Moderators" group: its members work the moderation queue (/mod/)
through the ``people.moderate`` permission, without being superusers."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"


def add_group(apps: Any, schema_editor: Any) -> None:
    # Permissions are made after all migrations ran; this one is needed now.
    # A historical app config has no models module, which create_permissions
    # takes to mean "no models": it is lent one for the call.
    config = apps.get_app_config("people")
    config.models_module = True
    try:
        create_permissions(config, verbosity=0, apps=apps)
    finally:
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    moderate = Permission.objects.get(content_type__app_label="people", codename="moderate")
    group.permissions.add(moderate)


def remove_group(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(add_group, remove_group)]
