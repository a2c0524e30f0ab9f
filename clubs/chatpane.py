"""What a member sees of their club's chat: the recent lines of the people
they see (``live.chatview``: never those they blocked or muted, none at all
with "no chat"), rendered for the page, the htmx answer and the socket alike.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q
from django.template.loader import render_to_string

from clubs.models import ChatLine, Club, Membership
from games.web.regions import NO_CSRF
from live.chatview import ChatView, chat_view
from live.models import MAX_LENGTH
from people.models import Report

HISTORY = 50
# How long a leader may mute a member in the club's chat, in minutes.
MUTE_MINUTES = (60, 24 * 60, 7 * 24 * 60)


def membership(club_pk: int, user: Any) -> Membership | None:
    """``user``'s membership of the club, if they are a member."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(
        club_id=club_pk, user_id=user.pk, status=Membership.Status.MEMBER
    ).first()


def muted_until(row: Membership | None) -> dt.datetime | None:
    return row.chat_muted_until if row is not None and row.chat_muted else None


def history(club: Club, view: ChatView) -> list[ChatLine]:
    rows = view.narrow(ChatLine.objects.filter(club=club, deleted_at__isnull=True))
    # A shadow-muted author's lines are shown to that author alone.
    rows = rows.exclude(Q(author__shadow_muted=True) & ~Q(author_id=view.viewer_id))
    recent = rows.select_related("author").order_by("-id")[:HISTORY]
    return list(reversed(recent))


def line_context(club: Club, *, viewer_id: int | None, leader: bool) -> dict[str, Any]:
    """What a line's controls need: report (anyone but its author), mute and
    block (the people's own), delete and mute in the club (leaders)."""
    return {
        "club": club,
        "viewer_id": viewer_id,
        "leader": leader,
        "report_reasons": Report.Reason.choices,
        "mute_minutes": MUTE_MINUTES,
    }


def pane_context(club: Club, user: Any, view: ChatView | None = None) -> dict[str, Any]:
    row = membership(club.pk, user)
    if row is None:
        return {"club": club, "member": False}
    if view is None:
        view = chat_view(user, seated=False)
    leader = row.role == Membership.Role.LEADER
    return {
        **line_context(club, viewer_id=user.pk, leader=leader),
        "member": True,
        "no_chat": view.no_chat,
        "lines": [] if view.no_chat else history(club, view),
        "muted_until": muted_until(row),
        "max_length": MAX_LENGTH,
    }


def pane_html(club_pk: int, user: Any, view: ChatView | None = None) -> str:
    """The pane as ``user`` sees it now, for their open socket."""
    club = Club.objects.get(pk=club_pk)
    return render_to_string("clubs/chat.html", {**pane_context(club, user, view), **NO_CSRF})


def line_html(line: ChatLine, *, viewer_id: int | None, leader: bool) -> str:
    """One new line, appended to the log by an out-of-band swap."""
    context = {**line_context(line.club, viewer_id=viewer_id, leader=leader), "line": line}
    return render_to_string("clubs/chat_append.html", {**context, **NO_CSRF})
