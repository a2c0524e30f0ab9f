"""Sent after commit when what one person sees of others changes (a block,
a mute, a moderator's action), so that ``live`` can tell their open
sockets without ``people`` importing anything above it."""

from __future__ import annotations

from django.dispatch import Signal

# kwargs: user_id, the person whose view changed.
hidden_changed = Signal()
# kwargs: user_id, the person a moderator acted on; kind, the ModAction kind.
standing_changed = Signal()
