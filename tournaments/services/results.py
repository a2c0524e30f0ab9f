"""A table's game has ended: its results, once, inside the game's own
finishing transaction (``tournaments.subscribers``); then the round, and
the next round's due row or the event's end."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.models import Game, Seat
from tournaments.models import Entry, Format, Result, Round, Table, Tournament
from tournaments.reads import standings
from tournaments.scheduling import schedule_round
from tournaments.services.common import as_points, changed, lock_tournament, points_for


def is_no_show(seat: Seat) -> bool:
    """A seat a bot took before its player made a single decision."""
    return bool(seat.user_id) and seat.taken_over and seat.decisions_total == 0


def record_game(game: Game, seats: list[Seat] | None = None) -> bool:
    """Record the finished ``game``'s table, if it is a tournament's and not
    recorded yet. ``seats``: the game's seats as the write left them."""
    found = Table.objects.filter(game_id=game.pk).values_list("pk", "round__tournament_id").first()
    if found is None:
        return False
    table_id, tournament_id = found
    t = lock_tournament(tournament_id)
    table = Table.objects.select_related("round").get(pk=table_id)
    if table.finished:
        return False
    if seats is None:
        seats = list(Seat.objects.filter(game_id=game.pk).order_by("number"))
    by_number = {seat.number: seat for seat in seats}
    points = points_for(t, len(seats))
    for result in table.results.select_related("entry"):
        seat = by_number.get(result.seat_number)  # type: ignore[arg-type]
        if seat is None:
            continue
        place = seat.final_rank or len(seats)
        result.place = place
        result.net_worth = seat.final_net_worth
        if result.kind == Result.Kind.NO_SHOW or is_no_show(seat):
            # The bot's place counts for the table, not for the absent player.
            result.kind = Result.Kind.NO_SHOW
            result.points = None
        else:
            result.points = as_points(points[min(place, len(points)) - 1])
            entry = result.entry
            entry.points += result.points
            entry.save(update_fields=["points"])
        result.save(update_fields=["place", "net_worth", "kind", "points"])
    table.finished = True
    table.save(update_fields=["finished"])
    rnd = table.round
    if not rnd.tables.filter(finished=False).exists():
        finish_round(t, rnd)
    changed(t)
    return True


def void_table(table_id: int) -> bool:
    """A table whose game is gone (deleted by an admin) or abandoned: it
    counts as played with no result for anyone, so that its round ends."""
    found = Table.objects.filter(pk=table_id).values_list("round__tournament_id", flat=True).first()
    if found is None:
        return False
    t = lock_tournament(found)
    table = Table.objects.select_related("round").get(pk=table_id)
    if table.finished or table.round.status != Round.Status.RUNNING:
        return False
    table.results.update(points=0)
    table.finished = True
    table.save(update_fields=["finished"])
    if not table.round.tables.filter(finished=False).exists():
        finish_round(t, table.round)
    changed(t)
    return True


def finish_round(t: Tournament, rnd: Round) -> None:
    """Every table of ``rnd`` is done: schedule the next round or end."""
    rnd.status = Round.Status.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    last = rnd.number >= t.rounds
    if t.format == Format.ELIMINATION:
        _eliminate(t, rnd)
        remaining = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
        last = rnd.final or remaining <= 1
    elif t.format == Format.ROUNDROBIN:
        last = rnd.final or (rnd.number >= t.rounds and not t.group_final)
    if last:
        finish_event(t)
    else:
        schedule_round(t, rnd.number + 1)


def _eliminate(t: Tournament, rnd: Round) -> None:
    """The top ``advance`` of each table and the byes go through."""
    out = []
    for result in rnd.results.select_related("entry"):
        entry = result.entry
        through = result.kind == Result.Kind.BYE or (
            result.kind == Result.Kind.PLAYED
            and result.place is not None
            and result.place <= t.advance
        )
        if entry.status == Entry.Status.NO_SHOW or (
            not through and entry.status == Entry.Status.ACTIVE
        ):
            entry.status = Entry.Status.ELIMINATED
            out.append(entry)
    Entry.objects.bulk_update(out, ["status"])


def finish_event(t: Tournament) -> None:
    """Final ranks (the standings; in an elimination, how far each got
    first; in a round-robin with a final, the final's places first), the
    winner, and the end."""
    order = [entry for _row, entry in standings(t)]
    index = {entry.pk: i for i, entry in enumerate(order)}
    reached: dict[int, tuple[int, int]] = {}
    final_places: dict[int, int] = {}
    for entry_id, number, place, is_final in Result.objects.filter(round__tournament=t).values_list(
        "entry_id", "round__number", "place", "round__final"
    ):
        if (number, -(place or 0)) > reached.get(entry_id, (0, 0)):
            reached[entry_id] = (number, -(place or 0))
        if is_final:
            final_places[entry_id] = place or 99

    def key(entry: Entry) -> Any:
        if t.format == Format.ELIMINATION:
            number, minus_place = reached.get(entry.pk, (0, 0))
            return (-number, -minus_place if minus_place else 99, index[entry.pk])
        if final_places:
            return (entry.pk not in final_places, final_places.get(entry.pk, 99), index[entry.pk])
        return (index[entry.pk],)

    ranked = sorted(order, key=key)
    for rank, entry in enumerate(ranked, start=1):
        entry.final_rank = rank
    Entry.objects.bulk_update(ranked, ["final_rank"])
    t.status = Tournament.Status.FINISHED
    t.finished_at = timezone.now()
    t.winner_id = ranked[0].user_id if ranked else None
    t.save(update_fields=["status", "finished_at", "winner"])
    changed(t)
