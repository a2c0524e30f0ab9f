import django.utils.timezone
from django.db import migrations, models
from django.db.models import Q


def keep_newest_turn_notice(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Before the constraint: one "your turn" row per person and game (the
    newest), and the digest under its own kind."""
    Notification = apps.get_model("notifications", "Notification")
    Notification.objects.filter(kind="your_turn", game__isnull=True).update(kind="digest")
    seen = set()
    stale = []
    rows = Notification.objects.filter(kind="your_turn").order_by("-created_at", "-pk")
    for pk, user_id, game_id in rows.values_list("pk", "user_id", "game_id").iterator():
        if (user_id, game_id) in seen:
            stale.append(pk)
        else:
            seen.add((user_id, game_id))
    Notification.objects.filter(pk__in=stale).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="notification",
            name="due_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="notification",
            name="email_due_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="notification",
            name="updated_at",
            field=models.DateTimeField(auto_now=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(
                choices=[
                    ("your_turn", "Your move"),
                    ("reminder", "Reminder"),
                    ("timeout", "Timed out"),
                    ("takeover", "Seat taken over"),
                    ("claim_expired", "Rent claim expired"),
                    ("digest", "Digest"),
                ],
                max_length=24,
            ),
        ),
        migrations.AlterModelOptions(name="notification", options={"ordering": ["-updated_at"]}),
        migrations.RunPython(keep_newest_turn_notice, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=Q(email_due_at__isnull=False, emailed=False),
                fields=["email_due_at"],
                name="notification_email_due_idx",
            ),
        ),
        migrations.DeleteModel(name="EmailThrottle"),
        migrations.AddConstraint(
            model_name="notification",
            constraint=models.UniqueConstraint(
                condition=Q(kind="your_turn"),
                fields=("user", "game"),
                name="one_live_turn_notice_per_game",
            ),
        ),
    ]
