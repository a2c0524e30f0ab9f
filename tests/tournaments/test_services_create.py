"""Creating events: who may, and what settings are refused."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from clubs.models import Club, Membership
from games.models import Game, Seat
from tests.conftest import setup_writes
from tests.games.conftest import _started
from tests.people.conftest import make_user
from tests.tournaments.services_support import event, staff  # noqa: F401
from tournaments import services
from tournaments.errors import NotEligible, TournamentError
from tournaments.models import Due, Series, Tournament

pytestmark = pytest.mark.django_db


def finished_games(user: User, count: int, timeouts: int = 0, decisions: int = 10) -> None:
    other = make_user(f"rival-of-{user.username}")
    for _ in range(count):
        game = _started(user, other)
        with setup_writes("a finished game"):
            Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with setup_writes("a player's record"):
        Seat.objects.filter(user=user).update(timeouts_total=timeouts, decisions_total=decisions)


def test_staff_create_a_swiss_with_due_rows_for_its_start(staff: User) -> None:  # noqa: F811
    t = event(staff)
    assert t.status == Tournament.Status.REGISTERING
    assert t.rounds_planned == 3
    kinds = set(Due.objects.filter(tournament=t).values_list("kind", "round_number", "due_at"))
    assert kinds == {("close", 0, t.starts_at), ("round", 1, t.starts_at)}


def test_refuses_a_new_player_without_finished_games(settings: Any) -> None:
    settings.TOURNAMENT_CREATE_MIN_GAMES = 2
    newcomer = make_user("newcomer")
    with pytest.raises(NotEligible, match="Finish 2 games"):
        event(newcomer)
    assert not Tournament.objects.exists()


def test_lets_a_reliable_player_with_finished_games_create(settings: Any) -> None:
    settings.TOURNAMENT_CREATE_MIN_GAMES = 2
    player = make_user("regular")
    finished_games(player, 2)
    assert event(player).created_by == player


def test_refuses_a_player_who_lets_decisions_time_out(settings: Any) -> None:
    settings.TOURNAMENT_CREATE_MIN_GAMES = 1
    settings.TOURNAMENT_CREATE_MAX_TIMEOUT_RATIO = 0.1
    player = make_user("sleepy")
    finished_games(player, 1, timeouts=5, decisions=5)
    with pytest.raises(NotEligible, match="time out"):
        event(player)


def test_only_staff_and_club_leaders_schedule_recurring_events(settings: Any) -> None:
    settings.TOURNAMENT_CREATE_MIN_GAMES = 0
    player = make_user("regular")
    with pytest.raises(NotEligible, match="recurring"):
        event(player, every=Series.Every.DAILY)
    club = Club.objects.create(slug="c", name="C", name_key="c")
    Membership.objects.create(club=club, user=player, status="member", role="leader")
    t = event(player, club=club, every=Series.Every.WEEKLY, members_only=True)
    assert t.series is not None and t.series.every == "weekly" and t.club == club


def test_a_club_event_is_for_its_leaders_only(settings: Any) -> None:
    settings.TOURNAMENT_CREATE_MIN_GAMES = 0
    member = make_user("member")
    club = Club.objects.create(slug="c", name="C", name_key="c")
    Membership.objects.create(club=club, user=member, status="member")
    with pytest.raises(NotEligible, match="leaders"):
        event(member, club=club)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"table_size": 7, "table_max": 7}, "table size must be from 2 to 6"),
        ({"table_size": 5, "table_max": 4}, "between the smallest and the largest"),
        ({"table_min": 1}, "smallest table must be from 2 to 6"),
        ({"rounds": 0}, "number of rounds must be from 1"),
        ({"rounds": "three"}, "whole number"),
        ({"cap_days": 0, "cap_turns": 0}, "length cap"),
        ({"cap_turns": 1001}, "length cap in turns must be from 0 to 1000"),
        ({"cap_days": 31}, "length cap in days must be from 0 to 30"),
        ({"turn_seconds": 10}, "turn timer"),
        ({"preset": "nope"}, "Unknown preset"),
        ({"switches": {"no_such_switch": True}}, "Unknown switch"),
        ({"switches": {"cap_days": 2}}, "tournament's own settings"),
        ({"points": [1, 2, 3, 4]}, "never rising"),
        ({"points": [3, 2]}, "largest table"),
        ({"members_only": True}, "club"),
        ({"name": "x"}, "name"),
        ({"name": "The Re7ard Cup"}, "name contains words this site does not allow"),
        ({"description": "for every retard"}, "description contains words"),
        ({"format": "ladder"}, "format"),
        ({"colour": "red"}, "Unknown tournament setting"),
        ({"starts_at": timezone.now() - timedelta(hours=1)}, "future"),
        ({"format": "elimination", "advance": 3, "table_min": 3}, "going through"),
        ({"format": "roundrobin", "group_size": 3, "table_max": 4}, "group"),
    ],
)
def test_refuses_bad_settings_with_a_clear_message(
    staff: User,  # noqa: F811
    fields: dict[str, Any],
    message: str,
) -> None:
    with pytest.raises(TournamentError, match=message):
        event(staff, **fields)
    assert not Tournament.objects.exists() and not Due.objects.exists()


def test_refuses_an_unknown_recurrence(staff: User) -> None:  # noqa: F811
    with pytest.raises(TournamentError, match="recurs"):
        event(staff, every="hourly")


def test_check_may_create_refuses_anonymous() -> None:
    with pytest.raises(NotEligible):
        services.check_may_create(None)
