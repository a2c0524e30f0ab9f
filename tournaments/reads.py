"""What the pages, the pushes, the pairing and the API read of an event."""

from __future__ import annotations

from collections import defaultdict

from tournaments.models import Entry, Result, Tournament
from tournaments.standing import Outcome, Row, rank


def outcomes(t: Tournament) -> list[Outcome]:
    """Every finished result of the event as the pure standings take it
    (a no-show's seat counts for its table's opponents, with no points)."""
    rows = list(
        Result.objects.filter(round__tournament=t, points__isnull=False).values(
            "entry_id", "round__number", "table_id", "points", "place", "net_worth"
        )
    )
    by_table: dict[int, list[int]] = defaultdict(list)
    for r in rows:
        if r["table_id"] is not None:
            by_table[r["table_id"]].append(r["entry_id"])
    pointless = Result.objects.filter(round__tournament=t, table__isnull=False, points__isnull=True)
    for table_id, entry_id in pointless.values_list("table_id", "entry_id"):
        by_table[table_id].append(entry_id)
    out = []
    for r in rows:
        opp: tuple[int, ...] = ()
        if r["table_id"] is not None:
            opp = tuple(sorted(set(by_table[r["table_id"]]) - {r["entry_id"]}))
        out.append(
            Outcome(
                player=r["entry_id"],
                round_no=r["round__number"],
                points=float(r["points"] or 0),
                place=r["place"],
                net_worth=r["net_worth"] or 0,
                opponents=opp,
            )
        )
    return out


def standings(t: Tournament) -> list[tuple[Row, Entry]]:
    """The standings, best first, each row with its entry (and user)."""
    entries = {e.pk: e for e in Entry.objects.filter(tournament=t).select_related("user")}
    return [(row, entries[row.player]) for row in rank(list(entries), outcomes(t))]
