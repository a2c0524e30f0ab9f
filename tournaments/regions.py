"""The two live regions of an event's page, as data: the standings and
the rounds' tables. The same for every viewer (``tournaments.live``
renders them once for all), so nothing here is anyone's own."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from tournaments import reads
from tournaments.models import Entry, Result, Round, Table, Tournament


def number(value: float) -> str:
    return f"{value:g}"


@dataclass
class Seat:
    name: str
    username: str
    place: int | None
    points: str
    kind: str
    kind_label: str
    is_viewer: bool


@dataclass
class TableRow:
    number: int
    group: int | None
    game: Any
    finished: bool
    seats: list[Seat] = field(default_factory=list)


@dataclass
class RoundRow:
    number: int
    status: str
    status_label: str
    final: bool
    starts_at: Any
    tables: list[TableRow] = field(default_factory=list)
    byes: list[Seat] = field(default_factory=list)


def _seat(result: Result, viewer_pk: int | None) -> Seat:
    user = result.entry.user
    return Seat(
        name=user.public_name,
        username=user.username,
        place=result.place,
        points="" if result.points is None else number(float(result.points)),
        kind=result.kind,
        kind_label=str(Result.Kind(result.kind).label),
        is_viewer=user.pk == viewer_pk,
    )


def rounds(t: Tournament, viewer: Any = None) -> list[RoundRow]:
    """Every round, newest first, with its tables (seat order) and byes."""
    viewer_pk = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    results = Result.objects.select_related("entry__user").order_by("seat_number", "entry_id")
    rows = (
        Round.objects.filter(tournament=t)
        .order_by("-number")
        .prefetch_related(
            Prefetch("tables", Table.objects.select_related("game").order_by("number")),
            Prefetch("results", results),
        )
    )
    out = []
    for r in rows:
        row = RoundRow(
            number=r.number,
            status=r.status,
            status_label=str(Round.Status(r.status).label),
            final=r.final,
            starts_at=r.starts_at,
        )
        by_table: dict[int, list[Result]] = {}
        for result in r.results.all():
            if result.table_id is None:
                row.byes.append(_seat(result, viewer_pk))
            else:
                by_table.setdefault(result.table_id, []).append(result)
        for table in r.tables.all():
            row.tables.append(
                TableRow(
                    number=table.number,
                    group=table.group,
                    game=table.game,
                    finished=table.finished,
                    seats=[_seat(res, viewer_pk) for res in by_table.get(table.pk, [])],
                )
            )
        out.append(row)
    return out


@dataclass
class Standing:
    rank: int
    name: str
    username: str
    status: str
    status_label: str
    points: str
    opponents_points: str
    places: str
    net_worth: int
    games: int
    byes: int
    is_viewer: bool


def standings(t: Tournament, viewer: Any = None) -> list[Standing]:
    viewer_pk = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    return [
        Standing(
            rank=row.rank,
            name=entry.user.public_name,
            username=entry.user.username,
            status=entry.status,
            status_label=str(Entry.Status(entry.status).label),
            points=number(row.points),
            opponents_points=number(row.opponents_points),
            places=" · ".join(str(n) for n in row.places) if row.places else "",
            net_worth=row.net_worth,
            games=row.games,
            byes=row.byes,
            is_viewer=entry.user_id == viewer_pk,
        )
        for row, entry in reads.standings(t)
    ]
