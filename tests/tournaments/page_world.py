"""Events built from rows, for the pages' tests: a registering one, and a
running one with a finished table, a table in play and a bye."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import services as games
from games.models import Game
from tests.people.conftest import make_user
from tournaments.models import Entry, Result, Round, Table, Tournament

SEED = 918273645501


def event(name: str = "Autumn Swiss", **fields: Any) -> Tournament:
    values: dict[str, Any] = {
        "name": name,
        "starts_at": timezone.now() + timedelta(days=1),
        "seed": SEED,
        "table_size": 3,
        "table_min": 2,
        "table_max": 4,
    }
    values.update(fields)
    return Tournament.objects.create(**values)


def enter(t: Tournament, *users: User, **fields: Any) -> list[Entry]:
    return [Entry.objects.create(tournament=t, user=u, **fields) for u in users]


@dataclass
class Running:
    tournament: Tournament
    players: list[User]
    entries: list[Entry]
    finished_game: Game
    live_game: Game


def running(prefix: str = "p") -> Running:
    """Seven players, round 1: table 1 finished (places 1-3), table 2 in
    play, one bye."""
    players = [make_user(f"{prefix}{i}") for i in range(1, 8)]
    t = event(status=Tournament.Status.RUNNING, current_round=1, started_at=timezone.now())
    entries = enter(t, *players)
    r1 = Round.objects.create(
        tournament=t, number=1, status=Round.Status.RUNNING, starts_at=timezone.now()
    )
    done = games.create_seated_game(humans=players[:3], bots=[], start=True)
    live = games.create_seated_game(humans=players[3:6], bots=[], start=True)
    t1 = Table.objects.create(round=r1, number=1, game=done, finished=True)
    t2 = Table.objects.create(round=r1, number=2, game=live)
    points = [Decimal(3), Decimal(1), Decimal(0)]
    for seat, (entry, pts) in enumerate(zip(entries[:3], points, strict=True)):
        Result.objects.create(
            round=r1,
            entry=entry,
            table=t1,
            seat_number=seat,
            place=seat + 1,
            net_worth=3000 - 1000 * seat,
            points=pts,
        )
    for seat, entry in enumerate(entries[3:6]):
        Result.objects.create(round=r1, entry=entry, table=t2, seat_number=seat)
    Result.objects.create(round=r1, entry=entries[6], kind=Result.Kind.BYE, points=Decimal(1))
    Round.objects.create(tournament=t, number=2, starts_at=timezone.now() + timedelta(days=2))
    t.version = 7
    t.save(update_fields=["version"])
    return Running(t, players, entries, done, live)
