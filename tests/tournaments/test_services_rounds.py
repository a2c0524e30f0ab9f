"""Rounds: started once, their games' results, the next round, the end."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.models import User
from games.models import Game
from ratings.models import RatingChange
from tests.tournaments.services_support import (  # noqa: F401
    entered,
    event,
    play_round,
    players,
    simple_pairing,
    staff,
)
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Due, Entry, Result, Round, Table, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("simple_pairing")]


def test_start_round_is_idempotent_and_starts_every_table(staff: User) -> None:  # noqa: F811
    t = event(staff, table_size=3, table_min=3, table_max=3)
    entered(t, players(7))
    first = services.start_round(tournament_id=t.pk, number=1)
    again = services.start_round(tournament_id=t.pk, number=1)
    assert first is not None and again is not None and first.pk == again.pk
    assert Round.objects.filter(tournament=t).count() == 1
    tables = list(Table.objects.filter(round=first).select_related("game"))
    assert len(tables) == 2
    assert all(tb.game.status == Game.Status.ACTIVE for tb in tables)  # type: ignore[union-attr]
    assert all(tb.game.takeover_on_first_timeout for tb in tables)  # type: ignore[union-attr]
    bye = Result.objects.get(round=first, kind=Result.Kind.BYE)
    assert bye.points == Decimal("1.00") and bye.entry.byes == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.current_round == 1


def test_a_round_waits_for_the_previous_one(staff: User) -> None:  # noqa: F811
    t = event(staff, table_size=2, table_min=2, table_max=2)
    entered(t, players(4))
    services.start_round(tournament_id=t.pk, number=1)
    with pytest.raises(TournamentError, match="previous round"):
        services.start_round(tournament_id=t.pk, number=2)


def test_too_few_players_cancel_the_event(staff: User) -> None:  # noqa: F811
    t = event(staff, table_size=3, table_min=3, table_max=3)
    entered(t, players(2))
    assert services.start_round(tournament_id=t.pk, number=1) is None
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert not Game.objects.exists()


def test_swiss_results_make_standings_then_rounds_then_a_winner(staff: User) -> None:  # noqa: F811
    t = event(staff, rounds=2, table_size=2, table_min=2, table_max=2, rated=False)
    people = players(4)
    entered(t, people)
    services.start_round(tournament_id=t.pk, number=1)
    rnd = play_round(t, 1)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED
    # Each table: the first seat resigned, the second won (2 places: 1, 0 points).
    played = Result.objects.filter(round=rnd)
    assert sorted((r.place, r.points) for r in played) == [
        (1, Decimal("1.00")), (1, Decimal("1.00")), (2, Decimal("0.00")), (2, Decimal("0.00"))
    ]  # fmt: skip
    assert Due.objects.filter(tournament=t, kind="round", round_number=2, done_at=None).exists()
    assert services.start_round(tournament_id=t.pk, number=2) is not None
    play_round(t, 2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.winner is not None
    ranks = sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True))
    assert ranks == [1, 2, 3, 4]
    winner = Entry.objects.get(tournament=t, final_rank=1)
    assert winner.user == t.winner and winner.points == Decimal("2.00")
    # An unrated event's games are not rated.
    assert not RatingChange.objects.exists()


def test_rated_event_games_are_rated(staff: User) -> None:  # noqa: F811
    t = event(staff, rounds=1, table_size=2, table_min=2, table_max=2)
    entered(t, players(2))
    services.start_round(tournament_id=t.pk, number=1)
    play_round(t, 1)
    assert RatingChange.objects.count() == 2


def test_elimination_sends_the_top_of_each_table_through_to_a_final(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, format="elimination", advance=1, table_size=2, table_min=2, table_max=2)
    people = players(4)
    entered(t, people)
    services.start_round(tournament_id=t.pk, number=1)
    play_round(t, 1)
    assert Entry.objects.filter(tournament=t, status=Entry.Status.ELIMINATED).count() == 2
    final = services.start_round(tournament_id=t.pk, number=2)
    assert final is not None and final.final
    play_round(t, 2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    winner = Entry.objects.get(tournament=t, final_rank=1)
    assert winner.user == t.winner and winner.status == Entry.Status.ACTIVE
    assert Entry.objects.get(tournament=t, final_rank=2).status == Entry.Status.ELIMINATED


def test_roundrobin_groups_play_their_schedule_then_a_final(staff: User) -> None:  # noqa: F811
    t = event(
        staff, format="roundrobin", rounds=1, group_size=2, group_final=1,
        table_size=2, table_min=2, table_max=2,
    )  # fmt: skip
    entered(t, players(4))
    first = services.start_round(tournament_id=t.pk, number=1)
    assert first is not None
    groups = set(Entry.objects.filter(tournament=t).values_list("group", flat=True))
    assert groups == {0, 1}
    for table in first.tables.all():
        members = Entry.objects.filter(results__table=table).values_list("group", flat=True)
        assert len(set(members)) == 1 and table.group in groups
    play_round(t, 1)
    t.refresh_from_db()
    assert t.rounds_planned == 2 and t.status == Tournament.Status.RUNNING
    final = services.start_round(tournament_id=t.pk, number=2)
    assert final is not None and final.final
    finalists = Entry.objects.filter(results__round=final)
    assert sorted(finalists.values_list("group", flat=True)) == [0, 1]
    play_round(t, 2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=t, final_rank=1).user == t.winner
