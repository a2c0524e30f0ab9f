"""A seat whose first decision times out: a bot plays it, its player is a
no-show (withdrawn, barred elsewhere, no points), and may rejoin."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from accounts.models import User
from games import services as games
from games.models import Deadline, Game, Seat
from notifications.models import Notification
from tests.tournaments.services_support import (  # noqa: F401
    entered,
    event,
    play_out,
    players,
    simple_pairing,
    staff,
)
from tournaments import services, sweep
from tournaments.errors import Barred
from tournaments.models import Bar, Entry, Result, Round, Tournament
from tournaments.reads import standings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("simple_pairing")]


def first_decision_times_out(game: Game) -> Seat:
    """The timer resolves the game's first decision; returns its seat."""
    deadline = Deadline.objects.filter(game=game).order_by("due_at").first()
    assert deadline is not None
    later = deadline.due_at + timedelta(seconds=1)
    assert games.expire_decision(game.pk, game.version, now=later)
    return Seat.objects.get(game=game, number=deadline.player)


def test_a_no_show_is_withdrawn_barred_and_scores_nothing(
    staff: User,  # noqa: F811
    django_capture_on_commit_callbacks: Any,
) -> None:
    t = event(staff, rounds=2, table_size=3, table_min=3, table_max=3)
    people = players(3)
    entered(t, people)
    rnd = services.start_round(tournament_id=t.pk, number=1)
    assert rnd is not None
    game = rnd.tables.get().game
    assert game is not None
    # The commit's callbacks run (the notice), but no timer task is queued.
    with (
        mock.patch("games.scheduling.schedule_timers"),
        mock.patch("games.scheduling.schedule_bots"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        seat = first_decision_times_out(game)
    assert seat.taken_over
    told = Notification.objects.get(user=seat.user, kind=Notification.Kind.TOURNAMENT)
    assert "withdrawn" in told.text and told.url == f"/tournaments/{t.pk}/"
    entry = Entry.objects.get(tournament=t, user=seat.user)
    assert entry.status == Entry.Status.NO_SHOW and entry.no_shows == 1
    bar = Bar.objects.get(user=seat.user)
    assert bar.tournament_id == t.pk and bar.until > timezone.now() + timedelta(days=13)
    # The other two resign: the bot playing the absent seat wins the table.
    game.refresh_from_db()
    present = [s.user for s in game.seats.exclude(pk=seat.pk).order_by("number")]
    play_out(game, [*present, seat.user])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    absent = Result.objects.get(entry=entry)
    assert absent.kind == Result.Kind.NO_SHOW and absent.place == 1 and absent.points is None
    others = Result.objects.filter(round=rnd).exclude(entry=entry)
    assert sorted(r.points for r in others) == [Decimal("0.00"), Decimal("1.00")]
    # The absent player counts as an opponent of the table, with no points.
    row = {r.player: r for r, _e in standings(t)}
    assert row[entry.pk].points == 0


def test_a_no_show_may_rejoin_before_the_next_round_but_not_join_others(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, rounds=2, table_size=3, table_min=3, table_max=3)
    other = event(staff, name="Another event")
    entered(t, players(3))
    rnd = services.start_round(tournament_id=t.pk, number=1)
    assert rnd is not None
    game = rnd.tables.get().game
    assert game is not None
    seat = first_decision_times_out(game)
    user = seat.user
    assert user is not None
    with pytest.raises(Barred):
        services.join_tournament(tournament_id=other.pk, user=user)
    entry = services.join_tournament(tournament_id=t.pk, user=user)
    assert entry.status == Entry.Status.ACTIVE and entry.joined_round == 1
    game.refresh_from_db()
    present = [s.user for s in game.seats.exclude(pk=seat.pk).order_by("number")]
    play_out(game, [*present, user])
    second = services.start_round(tournament_id=t.pk, number=2)
    assert second is not None
    assert second.results.filter(entry=entry).exists()


def test_a_no_show_is_not_seated_in_the_next_round(staff: User) -> None:  # noqa: F811
    t = event(staff, rounds=2, table_size=2, table_min=2, table_max=2)
    entered(t, players(4))
    rnd = services.start_round(tournament_id=t.pk, number=1)
    assert rnd is not None
    tables = list(rnd.tables.select_related("game"))
    seat = first_decision_times_out(tables[0].game)  # type: ignore[arg-type]
    for table in tables:
        game = table.game
        assert game is not None
        game.refresh_from_db()
        humans = [s.user for s in game.seats.order_by("number") if not s.taken_over]
        # At the no-show's table the one person resigns and the bot wins.
        play_out(game, humans if len(humans) == 2 else [*humans, seat.user])
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINISHED
    second = services.start_round(tournament_id=t.pk, number=2)
    assert second is not None
    seated = set(second.results.values_list("entry__user_id", flat=True))
    assert seat.user_id not in seated
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING


def test_the_sweep_records_what_the_subscriber_missed(staff: User) -> None:  # noqa: F811
    t = event(staff, rounds=2, table_size=3, table_min=3, table_max=3)
    entered(t, players(3))
    rnd = services.start_round(tournament_id=t.pk, number=1)
    assert rnd is not None
    game = rnd.tables.get().game
    assert game is not None
    broken = mock.patch("tournaments.subscribers.record_no_shows", side_effect=RuntimeError)
    with broken, mock.patch("tournaments.subscribers.record_game", side_effect=RuntimeError):
        # The moves go through all the same.
        seat = first_decision_times_out(game)
        game.refresh_from_db()
        present = [s.user for s in game.seats.exclude(pk=seat.pk).order_by("number")]
        play_out(game, [*present, seat.user])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    entry = Entry.objects.get(tournament=t, user=seat.user)
    assert entry.status == Entry.Status.ACTIVE
    assert sweep.repair() == 2
    assert sweep.repair() == 0
    entry.refresh_from_db()
    assert entry.status == Entry.Status.NO_SHOW and entry.no_shows == 1
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINISHED
    assert Result.objects.get(entry=entry).points is None


def test_a_no_show_cannot_take_the_seat_back_from_the_bot(staff: User) -> None:  # noqa: F811
    t = event(staff, table_size=2, table_min=2, table_max=2)
    entered(t, players(2))
    rnd = services.start_round(tournament_id=t.pk, number=1)
    assert rnd is not None
    game = rnd.tables.get().game
    assert game is not None
    seat = first_decision_times_out(game)
    with pytest.raises(games.NotAllowed, match="bot plays this seat"):
        games.reclaim_seat(public_id=game.public_id, user=seat.user)
    assert Seat.objects.get(pk=seat.pk).taken_over


def test_a_table_whose_game_an_admin_deleted_is_void_and_its_round_ends(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, rounds=2, table_size=3, table_min=3, table_max=3)
    entered(t, players(6))
    rnd = services.start_round(tournament_id=t.pk, number=1)
    assert rnd is not None
    first, second = rnd.tables.order_by("number")
    assert first.game is not None and second.game is not None
    play_out(second.game, [s.user for s in second.game.seats.order_by("number")])
    games.delete_game(game_pk=first.game.pk)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.RUNNING
    assert sweep.repair() == 1
    assert sweep.repair() == 0
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINISHED
    void = Result.objects.filter(table=first)
    assert void.count() == 3 and set(void.values_list("points", flat=True)) == {Decimal(0)}
    assert services.start_round(tournament_id=t.pk, number=2) is not None
