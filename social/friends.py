"""What the Friends page and the lobby's friends panel show: the people
you follow, who of them is online now, their live public games and their
recent results. A fixed number of queries, whatever the number followed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Exists, OuterRef

from accounts.models import User
from games.models import Game, Seat
from live import presence
from people.models import Follow

LIVE_GAMES = 20
RESULTS = 20


@dataclass
class Person:
    user: User
    bell: bool
    friend: bool
    online: bool


@dataclass
class GameRow:
    game: Game
    people: list[User] = field(default_factory=list)  # the followed people seated in it


@dataclass
class ResultRow:
    game: Game
    user: User
    rank: int | None
    players: int


def followed_people(user: Any) -> list[Person]:
    """Everyone ``user`` follows: friends (who follow back) first, then by name."""
    rows = (
        Follow.objects.filter(follower_id=user.pk, followed__is_active=True)
        .select_related("followed")
        .annotate(
            friend=Exists(
                Follow.objects.filter(follower_id=OuterRef("followed_id"), followed_id=user.pk)
            )
        )
    )
    rows_list = list(rows)
    online = presence.people_online([r.followed_id for r in rows_list])
    people = [
        Person(r.followed, r.bell, bool(r.friend), r.followed_id in online) for r in rows_list
    ]
    people.sort(key=lambda p: (not p.friend, p.user.public_name.lower()))
    return people


def live_games(pks: list[int]) -> list[GameRow]:
    """The public games in play with any of ``pks`` seated, latest move first."""
    seats = (
        Seat.objects.filter(user_id__in=pks, game__status=Game.Status.ACTIVE, game__is_public=True)
        .select_related("game", "user")
        .order_by("-game__updated_at", "number")
    )
    rows: dict[int, GameRow] = {}
    for seat in seats[: LIVE_GAMES * 4]:
        if seat.user is not None:  # always: the filter names users
            rows.setdefault(seat.game_id, GameRow(seat.game)).people.append(seat.user)
    return list(rows.values())[:LIVE_GAMES]


def recent_results(pks: list[int]) -> list[ResultRow]:
    """Their latest finished public games, one row per person and game."""
    seats = (
        Seat.objects.filter(
            user_id__in=pks, game__status=Game.Status.FINISHED, game__is_public=True
        )
        .select_related("game", "user")
        .annotate(players=Count("game__seats"))
        .order_by("-game__finished_at", "number")[:RESULTS]
    )
    return [ResultRow(s.game, s.user, s.final_rank, s.players) for s in seats if s.user is not None]


def friends_context(user: Any, *, results: bool = True) -> dict[str, Any]:
    people = followed_people(user)
    pks = [p.user.pk for p in people]
    return {
        "people": people,
        "online": [p for p in people if p.online],
        "live_games": live_games(pks),
        "results": recent_results(pks) if results else [],
    }
