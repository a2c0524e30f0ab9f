from django.db import migrations, models
from django.utils import timezone


def look_again_now(apps, schema_editor):
    """Each open decision of a person's seat whose "your move" notice was
    owed, or whose player has none for the game, is looked at by the next
    sweep: before this, a decision that arose while its player was at the
    game (or that the timer's move for them raised) was never looked at
    again, so a player who had left since was never told."""
    Deadline = apps.get_model("games", "Deadline")
    Seat = apps.get_model("games", "Seat")
    Notification = apps.get_model("notifications", "Notification")
    told = set(Notification.objects.filter(kind="your_turn").values_list("game_id", "user_id"))
    people = {
        (game_id, number): user_id
        for game_id, number, user_id in Seat.objects.filter(
            game__status="active", status="playing", taken_over=False, user__isnull=False
        ).values_list("game_id", "number", "user_id")
    }
    rows = Deadline.objects.filter(player__gte=0).exclude(kind="time_limit")
    due = []
    for pk, game_id, player, owed in rows.values_list("pk", "game_id", "player", "notice_due"):
        user_id = people.get((game_id, player))
        if user_id is not None and (owed or (game_id, user_id) not in told):
            due.append(pk)
    now = timezone.now()
    for start in range(0, len(due), 500):
        Deadline.objects.filter(pk__in=due[start : start + 500]).update(notice_at=now)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_challenges"),
        ("notifications", "0005_challenge_notices"),
    ]

    operations = [
        migrations.AddField(
            model_name="deadline",
            name="notice_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(look_again_now, migrations.RunPython.noop),
        migrations.RemoveIndex(model_name="deadline", name="deadline_notice_idx"),
        migrations.RemoveField(model_name="deadline", name="notice_due"),
        migrations.AddIndex(
            model_name="deadline",
            index=models.Index(
                condition=models.Q(("notice_at__isnull", False)),
                fields=["notice_at"],
                name="deadline_notice_at_idx",
            ),
        ),
    ]
