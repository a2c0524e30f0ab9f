"""The club chat's writes: a member posts a line, a leader deletes one or
mutes a member in the club, a member reports a line to the site's
moderators.

A line passes the same checks as a game's chat (``live.chat``: its form, a
moderator's chat timeout; ``live.chatguard``: "no chat", a newcomer's link,
the word filter), then the club's own: its author is a member whom no
leader has muted.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import live
from clubs.chatpane import MUTE_MINUTES, membership, muted_until
from clubs.errors import ChatRefused, MembershipRefused, NotLeader, NotMember
from clubs.models import ChatLine, Club, Membership
from live import chatguard
from live.chat import ChatError, check_body, check_chat_standing
from people.errors import PeopleError
from people.models import Report
from people.reports import file_report

CONTEXT = 5  # lines kept either side of a reported one


def _refused(message: str, status: int) -> ChatRefused:
    refused = ChatRefused(message)
    refused.status = status
    return refused


def _when(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%d %b %Y, %H:%M UTC")


def check_line(club: Club, user: Any, text: str) -> str:
    """``text`` as it may be stored, or ``ChatRefused`` saying why not."""
    row = membership(club.pk, user)
    if row is None:
        raise NotMember(_("Only the club's members can write in its chat."))
    until = muted_until(row)
    if until is not None:
        raise _refused(
            _("A leader of this club has muted you in its chat until %(when)s.")
            % {"when": _when(until)},
            403,
        )
    try:
        check_chat_standing(user)
        body = check_body(text)
        return chatguard.check_line(user, body, where=f"club:{club.slug}")
    except ChatError as exc:
        raise _refused(exc.message, exc.status) from None
    except chatguard.LineRefused as exc:
        raise _refused(exc.message, exc.status) from None


def _bump(club: Club) -> None:
    Club.objects.filter(pk=club.pk).update(version=F("version") + 1)


def do_post_line(*, club: Club, user: Any, text: str) -> ChatLine:
    body = check_line(club, user, text)
    with transaction.atomic():
        line = ChatLine.objects.create(club=club, author=user, text=body)
        _bump(club)
        live.line_posted(line)
    return line


def _leader_row(club: Club, leader: Any) -> Membership:
    row = membership(club.pk, leader)
    if row is None or row.role != Membership.Role.LEADER:
        raise NotLeader()
    return row


def do_delete_line(*, club: Club, leader: Any, line_id: int) -> ChatLine:
    """Hide a line from the chat; a report filed already keeps its copy."""
    with transaction.atomic():
        _leader_row(club, leader)
        line = ChatLine.objects.select_for_update().filter(club=club, pk=line_id).first()
        if line is None or line.deleted_at is not None:
            raise ChatRefused(_("That line was not found."))
        line.deleted_at, line.deleted_by = timezone.now(), leader
        line.save(update_fields=["deleted_at", "deleted_by"])
        _bump(club)
        live.chat_changed(club.pk)
    return line


def do_mute_member(*, club: Club, leader: Any, target: Any, minutes: int) -> Membership:
    """Mute ``target`` in this club's chat for ``minutes`` (0: lift the mute)."""
    if minutes and minutes not in MUTE_MINUTES:
        raise ChatRefused(_("Choose how long the mute lasts."))
    with transaction.atomic():
        _leader_row(club, leader)
        row = (
            Membership.objects.select_for_update()
            .filter(club=club, user=target, status=Membership.Status.MEMBER)
            .first()
        )
        if row is None:
            raise MembershipRefused(_("%(name)s is not a member.") % {"name": target.public_name})
        if row.role == Membership.Role.LEADER:
            raise MembershipRefused(_("Leaders cannot be muted in their club's chat."))
        until = timezone.now() + dt.timedelta(minutes=minutes) if minutes else None
        row.chat_muted_until = until
        row.save(update_fields=["chat_muted_until", "updated_at"])
        _bump(club)
        live.chat_changed(club.pk)
    return row


def _entry(line: ChatLine) -> dict[str, Any]:
    return {
        "id": line.pk,
        "author": line.author.username,
        "body": line.text,
        "at": line.created_at.isoformat(),
    }


def evidence(line: ChatLine) -> dict[str, Any]:
    """The reported line and the lines around it, as the club's members saw them."""
    shown = ChatLine.objects.filter(club_id=line.club_id, deleted_at__isnull=True)
    shown = shown.select_related("author")
    before = list(shown.filter(pk__lt=line.pk).order_by("-pk")[:CONTEXT])[::-1]
    after = list(shown.filter(pk__gt=line.pk).order_by("pk")[:CONTEXT])
    return {
        "club": line.club.slug,
        "club_name": line.club.name,
        "ref": str(line.pk),
        "line": _entry(line),
        "before": [_entry(m) for m in before],
        "after": [_entry(m) for m in after],
    }


def do_report_line(
    *, club: Club, reporter: Any, line_id: int, reason: str, text: str = ""
) -> Report:
    """File a member's report of a line into the site's moderation queue."""
    if membership(club.pk, reporter) is None:
        raise NotMember()
    line = (
        ChatLine.objects.filter(club=club, pk=line_id, deleted_at__isnull=True)
        .filter(~Q(author__shadow_muted=True) | Q(author=reporter))
        .select_related("author", "club")
        .first()
    )
    if line is None:
        raise ChatRefused(_("That line was not found."))
    if line.author_id == reporter.pk:
        raise ChatRefused(_("You cannot report yourself."))
    try:
        return file_report(
            reporter=reporter,
            reported=line.author,
            reason=reason,
            source=Report.Source.CLUB_CHAT,
            text=text,
            evidence=evidence(line),
        )
    except PeopleError as exc:
        raise ChatRefused(exc.message) from None
