"""Live standings: a tournament page's socket gets the standings region
again, versioned by ``Tournament.version``, when a game of the event ends, a
round starts or an entry changes.

CONTRACT: services call ``push(tournament_id)`` after their commit
(``transaction.on_commit``). Placeholder until the pages' work fills it in.
"""

from __future__ import annotations


def push(tournament_id: int) -> None:
    """Send the event's standings and rounds regions to its page's sockets."""
