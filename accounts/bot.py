"""Turning an account into a bot account and back.

Only between games: a person seated in open games would otherwise be a bot
account in games that seated them as a person (and the other way round).
The user's row is locked as ``games.services.lobby.lock_user`` locks it, so
a join cannot slip in between the check and the switch.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from games.models import Game


class BotAccountError(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def set_bot_account(user: Any, on: bool) -> None:
    with transaction.atomic():
        row = User.objects.select_for_update(no_key=True).get(pk=user.pk)
        if row.bot_account == on:
            user.bot_account = on
            return
        open_games = (
            Game.objects.filter(status__in=[Game.Status.LOBBY, Game.Status.ACTIVE])
            .filter(Q(host=user) | Q(seats__user=user))
            .distinct()
            .count()
        )
        if open_games:
            change = "a bot account" if on else "a person's account again"
            raise BotAccountError(
                f"You are in {open_games} game{'s' if open_games != 1 else ''} that "
                f"{'are' if open_games != 1 else 'is'} open or under way: finish or leave "
                f"{'them' if open_games != 1 else 'it'} before this account becomes {change}."
            )
        User.objects.filter(pk=user.pk).update(bot_account=on)
        user.bot_account = on
