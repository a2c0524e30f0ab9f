"""How urgent a case is: the moderation queue's order (docs/moderation.md).

Pure: it is given the facts of each report and reads nothing, so that the
weights can be tested and tuned on their own.

- Each distinct reporter counts once, however many reports they file, at the
  weight of the gravest reason they gave.
- A reporter counts less when their earlier reports were dismissed: the
  share of their decided reports that were upheld, smoothed so that a new
  reporter counts in full and nobody counts for nothing.
- Reports the site filed itself (chat filter, collusion check) count each,
  a little more than one person's, up to a few, so that a noisy filter
  cannot bury the people's reports.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

REASON_WEIGHT: dict[str, float] = {
    "abuse": 3.0,
    "collusion": 3.0,
    "spam": 2.0,
    "name": 2.0,
    "stalling": 1.5,
    "other": 1.0,
}
AUTO_WEIGHT = 1.5  # one site-filed report, against one person's 1.0
AUTO_COUNTED = 3  # site-filed reports counted at most
FLOOR = 0.2  # the least a reporter weighs, however often dismissed


@dataclass(frozen=True)
class ReportFacts:
    """One report as the score sees it. ``upheld`` and ``dismissed`` count
    the reporter's earlier decided reports (against anyone)."""

    reporter_id: int | None
    reason: str
    upheld: int = 0
    dismissed: int = 0


def reporter_weight(upheld: int, dismissed: int) -> float:
    """1.0 for a new reporter or one always upheld; towards ``FLOOR`` as
    more of their reports are dismissed."""
    upheld, dismissed = max(0, upheld), max(0, dismissed)
    return round(FLOOR + (1 - FLOOR) * (upheld + 1) / (upheld + dismissed + 1), 4)


def reason_weight(reason: str) -> float:
    return REASON_WEIGHT.get(reason, REASON_WEIGHT["other"])


def case_score(reports: Iterable[ReportFacts]) -> float:
    """The case's score: higher is more urgent."""
    by_reporter: dict[int, ReportFacts] = {}
    auto: list[float] = []
    for report in reports:
        if report.reporter_id is None:
            auto.append(AUTO_WEIGHT * reason_weight(report.reason))
            continue
        known = by_reporter.get(report.reporter_id)
        if known is None or reason_weight(report.reason) > reason_weight(known.reason):
            by_reporter[report.reporter_id] = report
    people = sum(
        reason_weight(r.reason) * reporter_weight(r.upheld, r.dismissed)
        for r in by_reporter.values()
    )
    return round(people + sum(sorted(auto, reverse=True)[:AUTO_COUNTED]), 3)
