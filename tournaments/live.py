"""Live standings: a tournament page's socket gets the standings region and
the rounds region again, versioned by ``Tournament.version``, when a game
of the event ends, a round starts or an entry changes.

CONTRACT: services call ``push(tournament_id)`` after their commit
(``transaction.on_commit``), having bumped ``Tournament.version`` in the
same transaction. The regions are the same partials the page renders
(``templates/tournaments/detail.html``) and the join answer carries, so
the three never differ. They are rendered once for every viewer: nothing
in them is anyone's own (the seed never shows while the event runs).

The frame is a snapshot (``<!--snapshot N-->``, static/js/live.js): every
push carries both regions whole, so a page that missed one is put right
by the next, and a page keeps whichever it has of the newer version.
Never raises: a lost push is made good by the socket's next connect or
its heartbeat's resync.
"""

from __future__ import annotations

import logging
from typing import Any

from django.template.loader import render_to_string

from tournaments import regions
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 60  # a page asks whether it is behind this often (data-heartbeat)


def group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def regions_context(t: Tournament) -> dict[str, Any]:
    """What the two regions show, for every viewer alike."""
    return {
        "tournament": t,
        "version": t.version,
        "standings": regions.standings(t),
        "rounds": regions.rounds(t),
    }


def regions_html(t: Tournament, *, oob: bool) -> str:
    context = {**regions_context(t), "oob": oob}
    return render_to_string("tournaments/detail.html#standings", context) + render_to_string(
        "tournaments/detail.html#rounds", context
    )


def snapshot(tournament_id: int) -> tuple[int, str] | None:
    """The event's version and its framed regions, or None if it is gone."""
    t = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if t is None:
        return None
    return t.version, f"<!--snapshot {t.version}-->" + regions_html(t, oob=True)


def current_version(tournament_id: int) -> int | None:
    return Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()


def push(tournament_id: int) -> None:
    """Send the event's standings and rounds regions to its page's sockets."""
    from live import groups

    try:
        found = snapshot(tournament_id)
        if found is None:
            return
        version, html = found
        groups.send(
            [(group(tournament_id), {"type": "live.push", "html": html, "version": version})]
        )
    except Exception:
        logger.exception("could not push the standings of tournament %s", tournament_id)
