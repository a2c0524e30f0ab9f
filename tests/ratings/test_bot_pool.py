"""Bot accounts are rated in their own pool, unless the host let them into
a game rated with people."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from ratings.models import PlayerRating, Pool
from ratings.services import rate_game
from tests.conftest import setup_writes
from tests.ratings.test_ratings import finished_game, make_user

pytestmark = pytest.mark.django_db


def bot_account(name: str) -> User:
    user = make_user(name)
    User.objects.filter(pk=user.pk).update(bot_account=True)
    user.refresh_from_db()
    return user


def test_a_game_of_bot_accounts_is_rated_in_the_bot_pool() -> None:
    a, b = bot_account("a"), bot_account("b")
    rate_game(finished_game({a: 1, b: 2}))
    assert set(PlayerRating.objects.values_list("pool", flat=True)) == {Pool.BOT}
    assert PlayerRating.objects.get(user=a).mu > PlayerRating.objects.get(user=b).mu


def test_bot_accounts_let_into_a_game_with_people_are_rated_with_them() -> None:
    person, bot = make_user("person"), bot_account("bot")
    game = finished_game({person: 2, bot: 1})
    with setup_writes("the host's leave for bot accounts"):
        game.allow_bot_accounts = True
        game.save(update_fields=["allow_bot_accounts"])
    rate_game(game)
    assert set(PlayerRating.objects.values_list("pool", flat=True)) == {Pool.REGULAR}
    assert PlayerRating.objects.filter(user=bot, pool=Pool.REGULAR).exists()


def test_a_game_mixing_people_and_bot_accounts_without_leave_is_unrated() -> None:
    person, bot = make_user("person"), bot_account("bot")
    assert rate_game(finished_game({person: 1, bot: 2})) == []
    assert not PlayerRating.objects.exists()


def test_the_leaderboard_has_a_bot_accounts_tab_with_the_badge() -> None:
    bots = [bot_account(f"bot{i}") for i in range(2)]
    for _ in range(10):
        rate_game(finished_game({bots[0]: 1, bots[1]: 2}))
    page = Client().get("/leaderboard/?pool=bot")
    assert page.status_code == 200
    assert page.context["pool"] == Pool.BOT
    assert b"bot0" in page.content
    assert b'class="badge bot-account"' in page.content
    assert b"bot0" not in Client().get("/leaderboard/?pool=regular").content
