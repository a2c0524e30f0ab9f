"""What the API shows of tournaments (``api.tournaments``): the list's rows
and one event whole, read in a few queries.

The event's ``seed`` keys its pairing: whoever knew it could work out the
seatings ahead, so it is shown only once the event is over (then anyone can
check the pairing against it), never while it registers or runs."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Case, Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery, When

from tournaments.models import Entry, Result, Round, Table, Tournament
from tournaments.pages import visible
from tournaments.reads import standings

Status = Tournament.Status
ENDED = (Status.FINISHED, Status.CANCELLED)
SETTINGS = (
    "format",
    "rounds",
    "table_size",
    "table_min",
    "table_max",
    "advance",
    "group_size",
    "group_final",
    "preset",
    "switches",
    "turn_seconds",
    "cap_days",
    "cap_turns",
    "rated",
    "round_gap_seconds",
    "max_players",
    "members_only",
)


def listed(user: Any) -> QuerySet[Tournament]:
    """The events the user may see (``tournaments.pages.visible``: a club's
    members-only events are its members'), with their players counted and
    the user's entry: open registrations first (soonest first), then those
    running, then the ended (latest first)."""
    return (
        visible(user)
        .select_related("club")
        .annotate(
            players=Count("entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN)),
            yours=Subquery(
                Entry.objects.filter(tournament=OuterRef("pk"), user=user).values("status")[:1]
            ),
            stage=Case(
                When(status=Status.REGISTERING, then=0),
                When(status=Status.RUNNING, then=1),
                default=2,
                output_field=IntegerField(),
            ),
        )
        .order_by(
            "stage",
            Case(When(stage__lt=2, then=F("starts_at"))).asc(nulls_last=True),
            F("starts_at").desc(),
            "-pk",
        )
    )


def row(t: Any) -> dict[str, Any]:
    """A row of the list (``t`` annotated by ``listed``)."""
    return {
        "id": t.pk,
        "name": t.name,
        "format": t.format,
        "status": t.status,
        "club": t.club.slug if t.club is not None else None,
        "members_only": t.members_only,
        "rated": t.rated,
        "starts_at": t.starts_at.isoformat(),
        "players": t.players,
        "max_players": t.max_players,
        "table_size": t.table_size,
        "rounds": t.rounds_planned or t.rounds,
        "current_round": t.current_round,
        "turn_seconds": t.turn_seconds,
        "your_entry": t.yours,
    }


def _person(user: Any) -> dict[str, Any]:
    return {"username": user.username, "name": user.public_name, "bot_account": user.bot_account}


def _points(value: Any) -> float | None:
    return float(value) if value is not None else None


def entry_view(e: Entry) -> dict[str, Any]:
    return {
        **_person(e.user),
        "status": e.status,
        "points": float(e.points),
        "byes": e.byes,
        "joined_round": e.joined_round,
        "group": e.group,
        "final_rank": e.final_rank,
    }


def _rounds(t: Tournament) -> list[dict[str, Any]]:
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    tables: dict[int, list[Table]] = defaultdict(list)
    for table in Table.objects.filter(round__tournament=t).select_related("game"):
        tables[table.round_id].append(table)
    seated: dict[int, list[Result]] = defaultdict(list)
    byes: dict[int, list[Result]] = defaultdict(list)
    results = Result.objects.filter(round__tournament=t).select_related("entry__user")
    for r in results.order_by("seat_number", "pk"):
        if r.table_id is None:
            byes[r.round_id].append(r)
        else:
            seated[r.table_id].append(r)
    return [
        {
            "number": rnd.number,
            "status": rnd.status,
            "final": rnd.final,
            "starts_at": rnd.starts_at.isoformat(),
            "started_at": rnd.started_at.isoformat() if rnd.started_at else None,
            "finished_at": rnd.finished_at.isoformat() if rnd.finished_at else None,
            "tables": [
                {
                    "number": table.number,
                    "group": table.group,
                    "game": table.game.public_id if table.game is not None else None,
                    "finished": table.finished,
                    "players": [
                        {
                            **_person(r.entry.user),
                            "seat": r.seat_number,
                            "kind": r.kind,
                            "place": r.place,
                            "net_worth": r.net_worth,
                            "points": _points(r.points),
                        }
                        for r in seated[table.pk]
                    ],
                }
                for table in sorted(tables[rnd.pk], key=lambda x: x.number)
            ],
            "byes": [
                {**_person(r.entry.user), "kind": r.kind, "points": _points(r.points)}
                for r in byes[rnd.pk]
            ],
        }
        for rnd in rounds
    ]


def _standings(t: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "rank": row.rank,
            **_person(entry.user),
            "status": entry.status,
            "points": row.points,
            "opponents_points": row.opponents_points,
            "places": list(row.places),
            "net_worth": row.net_worth,
            "games": row.games,
            "byes": row.byes,
        }
        for row, entry in standings(t)
    ]


def tournament_view(t: Tournament, user: Any, your_game: str | None) -> dict[str, Any]:
    """The event as ``GET /tournaments/{id}`` shows it to ``user``."""
    entries = list(
        Entry.objects.filter(tournament=t).select_related("user").order_by("created_at", "pk")
    )
    yours = next((e for e in entries if e.user_id == user.pk), None)
    return {
        "id": t.pk,
        "name": t.name,
        "description": t.description,
        "status": t.status,
        "club": {"slug": t.club.slug, "name": t.club.name} if t.club is not None else None,
        "recurring": t.series_id is not None,
        "created_by": t.created_by.username if t.created_by is not None else None,
        "starts_at": t.starts_at.isoformat(),
        "started_at": t.started_at.isoformat() if t.started_at else None,
        "finished_at": t.finished_at.isoformat() if t.finished_at else None,
        "current_round": t.current_round,
        "rounds_planned": t.rounds_planned or t.rounds,
        "winner": t.winner.username if t.winner is not None else None,
        "version": t.version,
        "seed": str(t.seed) if t.status == Status.FINISHED else None,
        "settings": {
            **{name: getattr(t, name) for name in SETTINGS},
            "points": [float(p) for p in t.points or []],
        },
        "players": [entry_view(e) for e in entries],
        "standings": _standings(t),
        "rounds": _rounds(t),
        "your_entry": entry_view(yours) if yours is not None else None,
        "your_game": your_game,
    }
