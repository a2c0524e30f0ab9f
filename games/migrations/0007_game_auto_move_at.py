from django.db import migrations, models
from django.db.models import Q
from django.utils import timezone


def due_now_where_a_bot_plays(apps, schema_editor):
    """Running games with a bot seat get a due row now: the sweep then plays
    the bot if it is to move, and clears the row if not. Before this, such a
    game's next bot move lived only in a queued task."""
    Game = apps.get_model("games", "Game")
    bot_seat = Q(seats__status="playing") & (
        Q(seats__user__isnull=True) | Q(seats__taken_over=True)
    )
    ids = set(Game.objects.filter(bot_seat, status="active").values_list("pk", flat=True))
    Game.objects.filter(pk__in=ids).update(auto_move_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_invite_token"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="auto_move_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("auto_move_at__isnull", False)),
                fields=["auto_move_at"],
                name="game_auto_move_idx",
            ),
        ),
        migrations.RunPython(due_now_where_a_bot_plays, migrations.RunPython.noop),
    ]
