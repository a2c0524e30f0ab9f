"""Whom a host may want to challenge, for the challenge forms' suggestions
(the lobby's create form, a game's lobby page): friends first, then the
people they follow, then people they played with lately. Only presented:
whether a challenge may reach someone is the challenge's own check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from games.models import Seat
from people.models import Block, Follow

LIMIT = 40
RECENT_SEATS = 200  # the co-players' seats read to find the recent ones

GROUPS = {"friend": _("friend"), "following": _("you follow"), "played": _("played with you")}


@dataclass(frozen=True)
class Suggestion:
    username: str
    name: str
    group: str  # "friend", "following" or "played"

    @property
    def group_label(self) -> str:
        return str(GROUPS[self.group])


def challenge_people(user: Any, limit: int = LIMIT) -> list[Suggestion]:
    if not getattr(user, "is_authenticated", False):
        return []
    follows = list(
        Follow.objects.filter(follower_id=user.pk)
        .annotate(
            back=Exists(
                Follow.objects.filter(follower_id=OuterRef("followed_id"), followed_id=user.pk)
            )
        )
        .values_list("followed_id", "back")
    )
    friends = {pk for pk, back in follows if back}
    following = {pk for pk, _back in follows} - friends
    played: list[int] = []
    co_seats = (
        Seat.objects.filter(game__seats__user_id=user.pk, user__isnull=False)
        .exclude(user_id=user.pk)
        .order_by("-game__created_at")
        .values_list("user_id", flat=True)[:RECENT_SEATS]
    )
    for pk in co_seats:
        if pk not in friends and pk not in following and pk not in played:
            played.append(pk)
    wanted = [*friends, *following, *played]
    people = (
        get_user_model()
        .objects.filter(pk__in=wanted, is_active=True)
        .exclude(Exists(Block.objects.filter(blocker_id=user.pk, blocked_id=OuterRef("pk"))))
        .only("username", "display_name")
    )
    by_pk = {p.pk: p for p in people}

    def rows(pks: Any, group: str) -> list[Suggestion]:
        found = [by_pk[pk] for pk in pks if pk in by_pk]
        if group != "played":
            found.sort(key=lambda p: p.public_name.lower())
        return [Suggestion(p.username, p.public_name, group) for p in found]

    out = rows(friends, "friend") + rows(following, "following") + rows(played, "played")
    return out[:limit]
