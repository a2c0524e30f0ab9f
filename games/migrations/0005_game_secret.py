from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0004_game_rated_with_bots")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="secret",
            field=models.CharField(blank=True, default="", max_length=128),
        ),
    ]
