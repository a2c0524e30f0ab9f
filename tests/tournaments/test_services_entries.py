"""Joining and withdrawing: registration, late entries, bars, clubs."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from clubs.models import Club, Membership
from tests.people.conftest import make_user
from tests.tournaments.services_support import (  # noqa: F401
    entered,
    event,
    play_round,
    players,
    simple_pairing,
    staff,
)
from tournaments import services
from tournaments.errors import (
    AlreadyEntered,
    Barred,
    MembersOnly,
    NotEntered,
    RegistrationClosed,
    TournamentFull,
)
from tournaments.models import Bar, Entry, Result, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("simple_pairing")]


def test_joins_once_and_bumps_the_version(staff: User) -> None:  # noqa: F811
    t = event(staff)
    player = make_user("joiner")
    entry = services.join_tournament(tournament_id=t.pk, user=player)
    assert entry.status == Entry.Status.ACTIVE and entry.joined_round == 1
    assert Tournament.objects.get(pk=t.pk).version > t.version
    with pytest.raises(AlreadyEntered):
        services.join_tournament(tournament_id=t.pk, user=player)


def test_refuses_join_when_full(staff: User) -> None:  # noqa: F811
    t = event(staff, max_players=2)
    entered(t, players(2))
    with pytest.raises(TournamentFull):
        services.join_tournament(tournament_id=t.pk, user=make_user("third"))


def test_withdraws_and_rejoins_while_registration_is_open(staff: User) -> None:  # noqa: F811
    t = event(staff)
    player = make_user("joiner")
    services.join_tournament(tournament_id=t.pk, user=player)
    entry = services.withdraw_from_tournament(tournament_id=t.pk, user=player)
    assert entry.status == Entry.Status.WITHDRAWN
    with pytest.raises(NotEntered):
        services.withdraw_from_tournament(tournament_id=t.pk, user=player)
    assert services.join_tournament(tournament_id=t.pk, user=player).status == "active"
    assert Entry.objects.filter(tournament=t).count() == 1


def test_members_only_event_refuses_outsiders(staff: User) -> None:  # noqa: F811
    club = Club.objects.create(slug="c", name="C", name_key="c")
    t = event(staff, club=club, members_only=True)
    outsider, member = make_user("outsider"), make_user("member")
    Membership.objects.create(club=club, user=member, status="member")
    with pytest.raises(MembersOnly):
        services.join_tournament(tournament_id=t.pk, user=outsider)
    assert services.join_tournament(tournament_id=t.pk, user=member)


def test_a_bar_from_another_event_refuses_join(staff: User) -> None:  # noqa: F811
    old, t = event(staff, name="Old event"), event(staff)
    player = make_user("absent")
    Bar.objects.create(user=player, tournament=old, until=timezone.now() + timedelta(days=3))
    with pytest.raises(Barred, match="cannot join tournaments until"):
        services.join_tournament(tournament_id=t.pk, user=player)
    Bar.objects.update(until=timezone.now() - timedelta(seconds=1))
    assert services.join_tournament(tournament_id=t.pk, user=player)


def test_late_join_gets_a_half_bye_per_round_missed_until_half_have_started(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, rounds=4, table_size=2, table_min=2, table_max=2)
    entered(t, players(4))
    services.start_round(tournament_id=t.pk, number=1)
    late = services.join_tournament(tournament_id=t.pk, user=make_user("late"))
    assert late.joined_round == 2
    half = Result.objects.get(entry=late)
    # A bye at a table of 2 (the stand-in: the median place's points, 1)
    # is worth 1; the half-bye half that.
    assert half.kind == Result.Kind.HALF_BYE and half.points == Decimal("0.50")
    assert Entry.objects.get(pk=late.pk).points == Decimal("0.50")
    play_round(t, 1)
    services.start_round(tournament_id=t.pk, number=2)
    with pytest.raises(RegistrationClosed):
        services.join_tournament(tournament_id=t.pk, user=make_user("too-late"))


def test_no_late_join_into_an_elimination(staff: User) -> None:  # noqa: F811
    t = event(staff, format="elimination", advance=1, table_size=2, table_min=2, table_max=2)
    entered(t, players(4))
    services.start_round(tournament_id=t.pk, number=1)
    with pytest.raises(RegistrationClosed):
        services.join_tournament(tournament_id=t.pk, user=make_user("late"))


def test_withdrawal_keeps_the_game_under_way_and_seats_no_later_round(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, rounds=2, table_size=2, table_min=2, table_max=2)
    people = players(4)
    entered(t, people)
    services.start_round(tournament_id=t.pk, number=1)
    quitter = people[0]
    game = services.your_next_game(t, quitter)
    assert game is not None
    services.withdraw_from_tournament(tournament_id=t.pk, user=quitter)
    assert services.your_next_game(t, quitter) == game
    play_round(t, 1)
    rnd = services.start_round(tournament_id=t.pk, number=2)
    assert rnd is not None
    seated = set(rnd.results.values_list("entry__user_id", flat=True))
    assert quitter.pk not in seated and len(seated) == 3


def test_your_next_game_is_none_for_strangers_and_anonymous(staff: User) -> None:  # noqa: F811
    t = event(staff)
    assert services.your_next_game(t, make_user("stranger")) is None
    assert services.your_next_game(t, None) is None
