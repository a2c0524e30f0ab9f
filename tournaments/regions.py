"""The two live regions of an event's page, as data: the standings and
the rounds' tables. The same for every viewer (``tournaments.live``
renders them once for all), so nothing here is anyone's own."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import ngettext

from games import engine
from games.wording import money
from tournaments import reads
from tournaments.models import Entry, Result, Round, Table, Tournament


def number(value: float) -> str:
    return f"{value:g}"


def points_words(value: float) -> str:
    """ "1 point", "0.5 points", "3 points"."""
    return ngettext("%(p)s point", "%(p)s points", 1 if value == 1 else 2) % {"p": number(value)}


@dataclass
class Seat:
    name: str
    username: str
    place: int | None
    points: str
    kind: str
    kind_label: str


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


def _seat(result: Result) -> Seat:
    user = result.entry.user
    return Seat(
        name=user.public_name,
        username=user.username,
        place=result.place,
        points="" if result.points is None else points_words(float(result.points)),
        kind=result.kind,
        kind_label=str(Result.Kind(result.kind).label),
    )


def rounds(t: Tournament) -> list[RoundRow]:
    """Every round, newest first, with its tables (seat order) and byes."""
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
                row.byes.append(_seat(result))
            else:
                by_table.setdefault(result.table_id, []).append(result)
        for table in r.tables.all():
            row.tables.append(
                TableRow(
                    number=table.number,
                    group=table.group,
                    game=table.game,
                    finished=table.finished,
                    seats=[_seat(res) for res in by_table.get(table.pk, [])],
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
    net_worth: str
    games: int
    byes: int


def _rules(t: Tournament) -> engine.Ruleset:
    """The event's games' rules, for their currency ($ or £)."""
    try:
        return engine.ruleset(t.preset, **(t.switches or {}))
    except engine.RulesetError:  # checked at creation; a later change of the presets
        return engine.ruleset()


def standings(t: Tournament) -> list[Standing]:
    rules = _rules(t)
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
            net_worth=money(rules, row.net_worth),
            games=row.games,
            byes=row.byes,
        )
        for row, entry in reads.standings(t)
    ]
