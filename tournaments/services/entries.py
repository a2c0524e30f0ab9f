"""Joining and withdrawing. Registration is open until ``starts_at``; a
Swiss event then takes late entries until half its rounds have started,
each missed round scored as a half-bye. Withdrawal is allowed at any time:
the player is seated in no later round, and a game under way stays theirs.
A no-show may rejoin the same event before its next round."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from clubs import access as club_access
from games.models import Game
from tournaments.errors import (
    AlreadyEntered,
    Barred,
    MembersOnly,
    NotEligible,
    NotEntered,
    RegistrationClosed,
    TournamentFull,
    TournamentOver,
)
from tournaments.models import Bar, Entry, Format, Result, Round, Tournament
from tournaments.services.common import as_points, bye_value, changed, lock_tournament

OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def late_join_open(t: Tournament) -> bool:
    """A running Swiss takes late entries until half its rounds have started."""
    return (
        t.status == Tournament.Status.RUNNING
        and t.format == Format.SWISS
        and 2 * t.current_round < t.rounds
    )


def check_bar(user: Any, t: Tournament) -> None:
    """A no-show elsewhere bars the account for a while (not from the event
    it missed a game of: that one it may rejoin)."""
    bar = (
        Bar.objects.filter(user=user, until__gt=timezone.now())
        .exclude(tournament=t)
        .order_by("-until")
        .first()
    )
    if bar is not None:
        raise Barred(
            _("You missed a tournament game, so you cannot join tournaments until %(until)s.")
            % {"until": formats.date_format(bar.until, "DATETIME_FORMAT")}
        )


def check_may_join(t: Tournament, user: Any, entry: Entry | None) -> None:
    """Whether ``user`` (signed in; ``entry`` their row, if any) may join
    ``t`` now, or rejoin it after a no-show. The service asks it under the
    event's lock; the event's page asks it to say why there is no Join button."""
    if t.status in OVER:
        raise RegistrationClosed(_("This tournament is over."))
    if entry is not None and entry.status == Entry.Status.ACTIVE:
        raise AlreadyEntered()
    if entry is not None and entry.status == Entry.Status.ELIMINATED:
        raise RegistrationClosed(_("You are out of this tournament."))
    if t.club is not None and t.members_only and not club_access.is_member(t.club, user):
        raise MembersOnly()
    check_bar(user, t)
    if t.rated and getattr(user, "rated_suspended", False):
        raise NotEligible(
            _("Your account is suspended from rated play: it cannot join rated tournaments.")
        )
    rejoin = entry is not None and entry.status == Entry.Status.NO_SHOW
    if t.status == Tournament.Status.RUNNING and not rejoin and not late_join_open(t):
        raise RegistrationClosed()
    if rejoin and t.format == Format.ELIMINATION:
        raise RegistrationClosed(_("You are out of this tournament."))
    active = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
    if active >= t.max_players:
        raise TournamentFull()


def join_tournament(*, tournament_id: int, user: Any) -> Entry:
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotEligible(_("Log in to join a tournament."))
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        entry = Entry.objects.filter(tournament=t, user=user).first()
        check_may_join(t, user, entry)
        rejoin = entry is not None and entry.status == Entry.Status.NO_SHOW
        late = t.status == Tournament.Status.RUNNING and not rejoin
        joined = t.current_round + 1 if t.status == Tournament.Status.RUNNING else 1
        if entry is None:
            entry = Entry(tournament=t, user=user)
        if entry.pk is None or not entry.results.exists():
            entry.joined_round = joined
        entry.status = Entry.Status.ACTIVE
        entry.save()
        if late:
            _half_byes(t, entry)
        changed(t)
    return entry


def _half_byes(t: Tournament, entry: Entry) -> None:
    """A half-bye for each round already started that they have no result in."""
    half = as_points(float(bye_value(t)) / 2)
    had = set(Result.objects.filter(entry=entry).values_list("round_id", flat=True))
    rounds = Round.objects.filter(tournament=t).exclude(pk__in=had)
    rows = [Result(round=r, entry=entry, kind=Result.Kind.HALF_BYE, points=half) for r in rounds]
    if rows:
        Result.objects.bulk_create(rows)
        entry.points += half * len(rows)
        entry.save(update_fields=["points"])


def withdraw_from_tournament(*, tournament_id: int, user: Any) -> Entry:
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotEntered()
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if t.status in OVER:
            raise TournamentOver()
        entry = Entry.objects.filter(tournament=t, user=user).first()
        if entry is None or entry.status != Entry.Status.ACTIVE:
            raise NotEntered()
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        changed(t)
    return entry


def your_next_game(tournament: Tournament, user: Any) -> Game | None:
    """The user's game under way in this event, if any."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    result = (
        Result.objects.filter(
            round__tournament=tournament,
            entry__user=user,
            table__game__status=Game.Status.ACTIVE,
        )
        .select_related("table__game")
        .order_by("-round__number")
        .first()
    )
    if result is None or result.table is None:
        return None
    return result.table.game
