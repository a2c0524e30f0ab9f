"""What a club tells people, once the write has committed: an invitation to
its invitee, a request to join to its leaders (but not to a leader who
blocked the one asking), and an acceptance to the new member."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.models import Club, Membership
from notifications.models import Notification
from notifications.services import on_commit
from people import relations

KIND = Notification.Kind.CLUB


def _url(club: Club) -> str:
    return reverse("club", args=[club.slug])


def invited(club: Club, leader: Any, target: Any) -> None:
    text = _("%(name)s invited you to the club %(club)s.") % {
        "name": leader.public_name,
        "club": club.name,
    }
    on_commit(target.pk, None, KIND, text, url=_url(club))


def requested(club: Club, user: Any) -> None:
    text = _("%(name)s asks to join the club %(club)s.") % {
        "name": user.public_name,
        "club": club.name,
    }
    leaders = Membership.objects.filter(
        club=club, status=Membership.Status.MEMBER, role=Membership.Role.LEADER
    ).select_related("user")
    for row in leaders:
        if not relations.blocks(row.user, user):
            on_commit(row.user_id, None, KIND, text, url=_url(club))


def accepted(club: Club, user: Any) -> None:
    text = _("You are now a member of the club %(club)s.") % {"club": club.name}
    on_commit(user.pk, None, KIND, text, url=_url(club))
