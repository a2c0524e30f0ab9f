"""Starting a round: in one transaction under the event's lock, the round,
its tables and results (and byes), and every table's game, created and
started together. A worker killed half-way rolls all of it back; the due
row stays open and the next sweep starts the round, once."""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.services.lobby import create_table_game
from people.models import Block
from tournaments import pairing
from tournaments.errors import TournamentError, TournamentOver
from tournaments.models import Entry, Format, Result, Round, Table, Tournament
from tournaments.notices import round_started
from tournaments.reads import standings
from tournaments.scheduling import round_planned_at
from tournaments.services.common import bye_value, changed, lock_tournament
from tournaments.services.create import table_switches
from tournaments.services.results import finish_event


@dataclass
class Plan:
    """A round's seating: tables of entry ids (with their group), byes."""

    tables: list[tuple[list[int], int | None]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    final: bool = False


def start_round(*, tournament_id: int, number: int) -> Round | None:
    """Start round ``number`` (idempotent: an existing round is returned as
    it is). None if the event ended instead: too few players to seat
    anyone (cancelled before its first round, finished after)."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        existing = Round.objects.filter(tournament=t, number=number).first()
        if existing is not None:
            return existing
        if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentOver()
        if number != t.current_round + 1:
            raise TournamentError(_("Round %(n)s cannot start now.") % {"n": number})
        if number > 1:
            previous = Round.objects.get(tournament=t, number=number - 1)
            if previous.status != Round.Status.FINISHED:
                raise TournamentError(_("The previous round is not over yet."))
        if t.status == Tournament.Status.REGISTERING:
            close_locked(t)
            if t.status != Tournament.Status.RUNNING:
                return None
        _withdraw_suspended(t)
        clock = time.perf_counter()
        plan = plan_round(t, number)
        seconds = time.perf_counter() - clock
        if not plan.tables:
            if number == 1:
                cancel_locked(t)
            else:
                finish_event(t)
            return None
        rnd = _seat(t, number, plan, seconds)
        pk = t.pk
        transaction.on_commit(lambda: round_started(pk, number))
        return rnd


def _seat(t: Tournament, number: int, plan: Plan, seconds: float) -> Round:
    now = timezone.now()
    rnd = Round.objects.create(
        tournament=t,
        number=number,
        status=Round.Status.RUNNING,
        final=plan.final,
        starts_at=round_planned_at(t, number),
        started_at=now,
        seating_seconds=seconds,
    )
    entries = {e.pk: e for e in Entry.objects.filter(tournament=t).select_related("user")}
    switches = table_switches(t)
    results: list[Result] = []
    for index, (players, group) in enumerate(plan.tables, start=1):
        game = create_table_game(
            humans=[entries[p].user for p in players],
            preset=t.preset,
            switches=switches,
            turn_seconds=t.turn_seconds,
            rated=t.rated,
        )
        table = Table.objects.create(round=rnd, number=index, group=group, game=game)
        results += [
            Result(round=rnd, entry_id=p, table=table, seat_number=seat)
            for seat, p in enumerate(players)
        ]
    bye = bye_value(t)
    for p in plan.byes:
        entry = entries[p]
        results.append(Result(round=rnd, entry=entry, kind=Result.Kind.BYE, points=bye))
        entry.points += bye
        entry.byes += 1
        entry.save(update_fields=["points", "byes"])
    Result.objects.bulk_create(results)
    t.current_round = number
    t.save(update_fields=["current_round"])
    changed(t)
    return rnd


def _withdraw_suspended(t: Tournament) -> None:
    """A player suspended from rated play since joining cannot sit at a
    rated event's table: withdrawn."""
    if t.rated:
        Entry.objects.filter(
            tournament=t, status=Entry.Status.ACTIVE, user__rated_suspended=True
        ).update(status=Entry.Status.WITHDRAWN)


def close_locked(t: Tournament) -> None:
    """Close registration (the event is locked): cancel it if too few
    entered, else it runs; round-robin players are put in their groups."""
    if t.status != Tournament.Status.REGISTERING:
        return
    active = list(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).order_by("pk"))
    if len(active) < max(2, t.table_min):
        cancel_locked(t)
        return
    t.status = Tournament.Status.RUNNING
    t.started_at = timezone.now()
    if t.format == Format.ROUNDROBIN:
        groups = assign_groups(t, [e.pk for e in active], met(t, {e.pk: e for e in active}))
        for e in active:
            e.group = groups[e.pk]
        Entry.objects.bulk_update(active, ["group"])
        t.rounds_planned = t.rounds + (1 if t.group_final else 0)
    elif t.format == Format.ELIMINATION:
        t.rounds_planned = elimination_rounds(len(active), t.table_size, t.table_max, t.advance)
    else:
        t.rounds_planned = t.rounds
    t.save(update_fields=["status", "started_at", "rounds_planned"])
    changed(t)


def cancel_locked(t: Tournament) -> None:
    t.status = Tournament.Status.CANCELLED
    t.finished_at = timezone.now()
    t.save(update_fields=["status", "finished_at"])
    changed(t)


def close_registration(*, tournament_id: int) -> Tournament:
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        close_locked(t)
    return t


def assign_groups(
    t: Tournament, players: Sequence[int], apart: Mapping[int, set[int]] | None = None
) -> dict[int, int]:
    """Players dealt into groups of about ``group_size`` (one group if 0),
    in an order drawn from the event's seed. Everyone in a group meets
    everyone else in it, so two people in ``apart`` (one blocked the other)
    are then put in different groups where a swap with another group's
    player allows it."""
    count = 1 if not t.group_size else max(1, round(len(players) / t.group_size))
    order = sorted(players)
    random.Random(t.seed).shuffle(order)
    group = {p: i % count for i, p in enumerate(order)}
    if count > 1 and apart:
        _separate(group, order, apart)
    return group


def _separate(group: dict[int, int], order: list[int], apart: Mapping[int, set[int]]) -> None:
    def clashes(p: int, g: int, ignoring: int) -> bool:
        return any(group.get(q) == g and q not in (p, ignoring) for q in apart.get(p, ()))

    for a in order:
        for b in sorted(apart.get(a, ())):
            if b not in group or group[a] != group[b]:
                continue
            for q in order:
                gq, gb = group[q], group[b]
                if gq != gb and not clashes(b, gq, q) and not clashes(q, gb, b):
                    group[b], group[q] = gq, gb
                    break


def elimination_rounds(n: int, size: int, hi: int, advance: int) -> int:
    """How many rounds an elimination of ``n`` takes, the final included."""
    rounds = 1
    while n > hi:
        tables = max(1, n // size)
        n = tables * advance + (n - tables * size if n > tables * size else 0)
        rounds += 1
    return rounds


def plan_round(t: Tournament, number: int) -> Plan:
    active = {
        e.pk: e
        for e in Entry.objects.filter(
            tournament=t, status=Entry.Status.ACTIVE, joined_round__lte=number
        ).select_related("user")
    }
    order = [entry.pk for _row, entry in standings(t) if entry.pk in active]
    size, lo, hi = t.table_size, t.table_min, t.table_max
    if len(order) < max(2, lo):
        return Plan()
    if t.format == Format.SWISS:
        s = pairing.seat_swiss(
            order, met(t, active), {p: active[p].byes for p in order},
            size=size, lo=lo, hi=hi, seed=t.seed, round_no=number,
        )  # fmt: skip
        return Plan([(table, None) for table in s.tables], list(s.byes))
    if t.format == Format.ELIMINATION:
        s = pairing.seat_elimination(
            order, size=size, lo=lo, hi=hi, seed=t.seed, round_no=number, met=met(t, active)
        )
        final = len(s.tables) == 1 and not s.byes
        return Plan([(table, None) for table in s.tables], list(s.byes), final)
    if number <= t.rounds:
        return _group_round(t, number, set(order))
    return _final(t, order)


def met(t: Tournament, active: dict[int, Entry] | None = None) -> dict[int, set[int]]:
    """Who has shared a table with whom so far; and, among ``active``, who
    blocked whom, as if they had met: the seating avoids both where it can,
    so people who blocked each other share a table only when no seating
    keeps them apart."""
    tables: dict[int, list[int]] = defaultdict(list)
    rows = Result.objects.filter(round__tournament=t, table__isnull=False)
    for table_id, entry_id in rows.values_list("table_id", "entry_id"):
        tables[table_id].append(entry_id)
    out: dict[int, set[int]] = defaultdict(set)
    for players in tables.values():
        for p in players:
            out[p].update(q for q in players if q != p)
    if active:
        entry_of = {e.user_id: pk for pk, e in active.items()}
        blocks = Block.objects.filter(blocker_id__in=entry_of, blocked_id__in=entry_of)
        for blocker, blocked in blocks.values_list("blocker_id", "blocked_id"):
            a, b = entry_of[blocker], entry_of[blocked]
            out[a].add(b)
            out[b].add(a)
    return out


def _group_round(t: Tournament, number: int, active: set[int]) -> Plan:
    """Each group's table for this round of its fixed schedule (drawn once
    from the players it started with); those who left are dropped."""
    groups: dict[int, list[int]] = defaultdict(list)
    rows = Entry.objects.filter(tournament=t, group__isnull=False).values_list("pk", "group")
    for pk, group in rows:
        if group is not None:
            groups[group].append(pk)
    plan = Plan()
    for group, players in sorted(groups.items()):
        schedule = pairing.roundrobin_schedule(
            sorted(players), size=t.table_size, lo=t.table_min, hi=t.table_max,
            rounds=t.rounds, seed=t.seed + group,
        )  # fmt: skip
        if number > len(schedule):
            continue
        seating = schedule[number - 1]
        for table in seating.tables:
            keep = [p for p in table if p in active]
            if len(keep) >= 2:
                plan.tables.append((keep, group))
            else:
                plan.byes += keep
        plan.byes += [p for p in seating.byes if p in active]
    return plan


def _final(t: Tournament, order: list[int]) -> Plan:
    """The round-robin's final: the best ``group_final`` of each group."""
    group_of = dict(Entry.objects.filter(tournament=t).values_list("pk", "group"))
    taken: dict[Any, int] = defaultdict(int)
    finalists = []
    for p in order:
        if taken[group_of.get(p)] < t.group_final:
            taken[group_of.get(p)] += 1
            finalists.append(p)
    if len(finalists) < 2:
        return Plan()
    if len(finalists) <= t.table_max:
        return Plan([(finalists, None)], [], True)
    s = pairing.seat_elimination(
        finalists, size=t.table_size, lo=t.table_min, hi=t.table_max, seed=t.seed,
        round_no=t.rounds + 1, met=met(t),
    )  # fmt: skip
    return Plan([(table, None) for table in s.tables], list(s.byes), True)
