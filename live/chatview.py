"""Whose chat lines one viewer sees. Never those of people they blocked or
muted (``people.relations.hidden_author_ids``); in a game where they sit,
only those their "who may chat in my games" (``chat_from``) lets through;
none at all with "no chat" (``no_chat``). Their own lines always.

The same ``ChatView`` narrows the page's history (a query) and each pushed
line (``shows``, in ``live.consumers``), so the two cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from people import relations
from people.models import Audience


@dataclass(frozen=True)
class ChatView:
    viewer_id: int | None = None
    no_chat: bool = False
    hidden: frozenset[int] = frozenset()
    # None: anyone not hidden; else only these authors (and the viewer).
    allowed: frozenset[int] | None = None

    @property
    def plain(self) -> bool:
        """Sees every line: what is rendered once for everyone fits."""
        return not self.no_chat and not self.hidden and self.allowed is None

    def shows(self, author_id: int | None) -> bool:
        if self.no_chat:
            return False
        if author_id is None or author_id == self.viewer_id:
            return True
        if author_id in self.hidden:
            return False
        return self.allowed is None or author_id in self.allowed

    def narrow(self, lines: QuerySet[Any]) -> QuerySet[Any]:
        """``lines`` (chat messages) without those this viewer does not see."""
        if self.no_chat:
            return lines.none()
        if self.hidden:
            lines = lines.exclude(author_id__in=self.hidden)
        if self.allowed is not None:
            lines = lines.filter(Q(author_id__in=self.allowed) | Q(author_id=self.viewer_id))
        return lines


EVERYONE = ChatView()


def chat_view(user: Any, *, seated: bool) -> ChatView:
    """``user``'s view, read afresh (an open socket's user may have changed
    their settings since it connected); ``seated``: they sit in the game,
    where their ``chat_from`` applies."""
    if not getattr(user, "is_authenticated", False):
        return EVERYONE
    row = get_user_model().objects.filter(pk=user.pk).values("no_chat", "chat_from").first()
    if row is None:
        return EVERYONE
    if row["no_chat"]:
        return ChatView(viewer_id=user.pk, no_chat=True)
    allowed: frozenset[int] | None = None
    if seated and row["chat_from"] == Audience.NOBODY:
        allowed = frozenset()
    elif seated and row["chat_from"] == Audience.FOLLOWING:
        allowed = frozenset(relations.following_ids(user))
    return ChatView(viewer_id=user.pk, hidden=relations.hidden_author_ids(user), allowed=allowed)
