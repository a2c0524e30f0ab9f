"""What the services share: the locked event, its points, its version."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from tournaments import live, pairing
from tournaments.errors import TournamentNotFound
from tournaments.models import Tournament


def lock_tournament(tournament_id: int) -> Tournament:
    """The event's row, locked for the rest of the transaction: every change
    to its entries, rounds and results happens under it."""
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise TournamentNotFound()
    return t


def points_for(t: Tournament, size: int) -> list[float]:
    """Points by place at a table of ``size``: the event's own table (its
    first ``size`` places) or the default for that size."""
    if t.points:
        return [float(p) for p in t.points[:size]]
    return [float(p) for p in pairing.default_points(size)]


def bye_value(t: Tournament) -> Decimal:
    """A bye: the median place's points at a table of the event's size."""
    return as_points(pairing.bye_points(points_for(t, t.table_size)))


def as_points(value: float) -> Decimal:
    return Decimal(str(round(value, 2))).quantize(Decimal("0.01"))


def changed(t: Tournament) -> None:
    """The event's page must show something new: bump its version in this
    transaction (the row is locked) and push once committed."""
    t.version += 1
    Tournament.objects.filter(pk=t.pk).update(version=t.version)
    pk = t.pk
    transaction.on_commit(lambda: live.push(pk))
