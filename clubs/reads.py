"""What the club pages show: the clubs, a club's people, its members' live
games, its events and its leaderboard. Reads only."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, Q, QuerySet

from clubs.models import Club, Membership
from games.models import Game
from ratings.models import PlayerRating, Pool

Status = Membership.Status
LIST_SIZE = 50
LIVE_GAMES = 20
EVENTS = 20
BOARD = 50
MEMBERS_PAGE = 100


def clubs_list(query: str = "") -> QuerySet[Club]:
    """Clubs by name, with their member counts; ``query`` narrows by name."""
    clubs = Club.objects.annotate(
        members=Count("memberships", filter=Q(memberships__status=Status.MEMBER))
    )
    query = " ".join(query.split())[:60]
    if query:
        clubs = clubs.filter(Q(name__icontains=query) | Q(description__icontains=query))
    return clubs.order_by("name")[:LIST_SIZE]


def mine(user: Any) -> list[Membership]:
    """``user``'s clubs, invitations and requests."""
    if not getattr(user, "is_authenticated", False):
        return []
    rows = Membership.objects.filter(user=user).exclude(status=Status.BANNED)
    return list(rows.select_related("club").order_by("status", "club__name"))


def people(club: Club, page: Any = 1) -> dict[str, Any]:
    """A page of the members (leaders first), and the requests, invitations
    and bans; ``member_count`` and ``member_page`` for the pager."""
    rows = Membership.objects.filter(club=club).select_related("user", "invited_by")
    ordered = rows.order_by("role", "user__username", "pk")  # "leader" before "member"
    members = Paginator(ordered.filter(status=Status.MEMBER), MEMBERS_PAGE).get_page(page)
    out: dict[str, Any] = {s: [] for s in Status.values if s != Status.MEMBER}
    for row in ordered.exclude(status=Status.MEMBER):
        out[row.status].append(row)
    out[Status.MEMBER] = list(members)
    out["member_count"] = members.paginator.count
    out["member_page"] = members
    return out


def member_ids(club: Club) -> QuerySet[Membership, int]:
    return Membership.objects.filter(club=club, status=Status.MEMBER).values_list(
        "user_id", flat=True
    )


def live_games(club: Club) -> list[Game]:
    """Public games under way with a member seated, the latest started first."""
    games = Game.objects.filter(
        status=Game.Status.ACTIVE, is_public=True, seats__user_id__in=member_ids(club)
    ).distinct()
    games = games.order_by("-started_at", "-pk").prefetch_related("seats__user")
    return list(games[:LIVE_GAMES])


def events(club: Club) -> list[Any]:
    """The club's tournaments (``tournaments`` declares the relation), the
    next or latest first."""
    return list(club.tournaments.order_by("-starts_at", "-pk")[:EVENTS])


def leaderboard(club: Club) -> list[PlayerRating]:
    """The members' site ratings (regular games), best first; a member with
    no rated game yet is not on it."""
    rows = PlayerRating.objects.filter(
        pool=Pool.REGULAR, games__gt=0, user_id__in=member_ids(club)
    ).select_related("user")
    return list(rows.order_by("-ordinal", "user_id")[:BOARD])
