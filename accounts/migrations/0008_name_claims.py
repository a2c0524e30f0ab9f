import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def claim_existing_names(apps, schema_editor):
    """Every account claims the keys of its names, oldest account first.
    Names that clashed before the rule stay as they are; the newer holder
    just has no claim on the key (the rule is for names set from now on)."""
    from accounts.names import keys

    User = apps.get_model("accounts", "User")
    NameClaim = apps.get_model("accounts", "NameClaim")
    claimed: set[str] = set()
    rows = []
    users = User.objects.order_by("pk").values_list("pk", "username", "display_name")
    for pk, username, display_name in users.iterator():
        for name in (username, display_name):
            for key in sorted(keys(name or "")):
                if key not in claimed and len(key) <= 320:
                    claimed.add(key)
                    rows.append(NameClaim(user_id=pk, key=key))
    NameClaim.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_user_bot_account"),
    ]

    operations = [
        migrations.CreateModel(
            name="NameClaim",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=320, unique=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="name_claims",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(claim_existing_names, migrations.RunPython.noop),
    ]
