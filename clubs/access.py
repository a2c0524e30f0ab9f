"""Who belongs to a club: the one place the tournaments, the chat and the
pages ask."""

from __future__ import annotations

from typing import Any

from clubs.models import Club, Membership


def is_member(club: Club, user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(club=club, user=user, status=Membership.Status.MEMBER).exists()


def is_leader(club: Club, user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(
        club=club, user=user, status=Membership.Status.MEMBER, role=Membership.Role.LEADER
    ).exists()
