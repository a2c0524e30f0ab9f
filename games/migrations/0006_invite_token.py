from django.db import migrations, models

import games.models


class Migration(migrations.Migration):
    """Invite tokens grow from 16 to 32 random bytes; existing ones stay."""

    dependencies = [
        ("games", "0005_game_secret"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="invite_token",
            field=models.CharField(
                default=games.models.new_invite_token, max_length=64, unique=True
            ),
        ),
    ]
