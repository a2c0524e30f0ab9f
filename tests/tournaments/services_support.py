"""Helpers for the services' tests: small stand-ins for the pure pairing and
standings (the services are tested on their own, with seatings that are easy
to predict), events, and games played to their end."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from accounts.models import User
from games import services as games
from games.models import Game
from tests.people.conftest import make_user
from tournaments import pairing, services
from tournaments.models import Round, Tournament
from tournaments.pairing import Seating
from tournaments.standing import Outcome, Row


def default_points(size: int) -> list[float]:
    return [float(size - 1 - i) for i in range(size)]


def bye_points(points: Sequence[float]) -> float:
    return float(sorted(points)[len(points) // 2])


def _chunk(order: Sequence[int], size: int, lo: int) -> Seating:
    tables = [list(order[i : i + size]) for i in range(0, len(order), size)]
    byes: list[int] = []
    if tables and len(tables[-1]) < lo:
        byes = tables.pop()
    return Seating(tables=tables, byes=byes)


def seat_swiss(
    order: Sequence[int], met: Mapping[int, set[int]], byes: Mapping[int, int], *,
    size: int, lo: int, hi: int, seed: int, round_no: int,
) -> Seating:  # fmt: skip
    return _chunk(order, size, lo)


def seat_elimination(
    order: Sequence[int], *, size: int, lo: int, hi: int, seed: int, round_no: int,
    met: Mapping[int, set[int]] | None = None,
) -> Seating:  # fmt: skip
    if len(order) <= hi:
        return Seating(tables=[list(order)])
    return _chunk(order, size, lo)


def roundrobin_schedule(
    players: Sequence[int], *, size: int, lo: int, hi: int, rounds: int, seed: int
) -> list[Seating]:
    out = []
    for r in range(rounds):
        turned = list(players[r:]) + list(players[:r])
        out.append(_chunk(turned, size, lo))
    return out


def rank(players: Sequence[int], outcomes: Sequence[Outcome]) -> list[Row]:
    points: dict[int, float] = dict.fromkeys(players, 0.0)
    for o in outcomes:
        points[o.player] = points.get(o.player, 0.0) + o.points
    order = sorted(players, key=lambda p: (-points[p], p))
    return [
        Row(rank=i, player=p, points=points[p], opponents_points=0.0, places=(),
            net_worth=0, games=0, byes=0)
        for i, p in enumerate(order, start=1)
    ]  # fmt: skip


@pytest.fixture
def simple_pairing() -> Iterator[None]:
    """The stand-ins in place of ``tournaments.pairing`` and the ranking."""
    with (
        mock.patch.object(pairing, "default_points", default_points),
        mock.patch.object(pairing, "bye_points", bye_points),
        mock.patch.object(pairing, "seat_swiss", seat_swiss),
        mock.patch.object(pairing, "seat_elimination", seat_elimination),
        mock.patch.object(pairing, "roundrobin_schedule", roundrobin_schedule),
        mock.patch("tournaments.reads.rank", rank),
    ):
        yield


@pytest.fixture
def staff(db: None) -> User:
    user = make_user("steward")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def players(count: int, prefix: str = "player") -> list[User]:
    return [make_user(f"{prefix}{i}") for i in range(count)]


def event(creator: User, **fields: Any) -> Tournament:
    values: dict[str, Any] = {
        "name": "Test event",
        "rounds": 3,
        "table_size": 3,
        "table_min": 2,
        "table_max": 4,
        "turn_seconds": 3600,
        "cap_days": 3,
        "round_gap_seconds": 0,
        "starts_at": timezone.now() + timedelta(hours=1),
    }
    values.update(fields)
    return services.create_tournament(user=creator, **values)


def entered(t: Tournament, people: Sequence[User]) -> None:
    for user in people:
        services.join_tournament(tournament_id=t.pk, user=user)


def play_out(game: Game, order: Sequence[User] | None = None) -> None:
    """End ``game``: its people resign in ``order`` (seat order if not
    given) until one is left, who wins."""
    seats = list(game.seats.select_related("user").order_by("number"))
    quitting = list(order) if order is not None else [s.user for s in seats]
    for user in quitting[:-1]:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        games.resign(public_id=game.public_id, user=user, expected_version=game.version)


def play_round(t: Tournament, number: int) -> Round:
    rnd = Round.objects.get(tournament=t, number=number)
    for table in rnd.tables.select_related("game"):
        assert table.game is not None
        play_out(table.game)
    return rnd
