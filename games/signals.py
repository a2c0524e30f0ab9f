"""Signals of what people do that is not a write: apps above ``games`` listen
(``notifications`` clears a player's "your move" notice when they open the
game), so that the pages need not know them."""

from __future__ import annotations

from django.dispatch import Signal

# A seated player opened their game's page. Sent with ``sender=Game`` and
# the keyword arguments ``game`` and ``user``.
game_opened = Signal()
