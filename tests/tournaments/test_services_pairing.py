"""The services on the real pairing and standings, and the engine's cap."""

from __future__ import annotations

from collections import Counter

import pytest

from accounts.models import User
from games.models import Game
from people.models import Block
from tests.tournaments.services_support import entered, event, play_round, players, staff  # noqa: F401
from tournaments import services
from tournaments.models import Entry, Result, Tournament
from tournaments.services.rounds import assign_groups, plan_round

pytestmark = pytest.mark.django_db


def test_a_swiss_runs_to_its_end_on_the_real_pairing_with_capped_games(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, rounds=2, table_size=3, table_min=3, table_max=3, cap_days=2, cap_turns=40)
    entered(t, players(7))
    first = services.start_round(tournament_id=t.pk, number=1)
    assert first is not None
    assert first.tables.count() == 2
    assert Result.objects.filter(round=first, kind=Result.Kind.BYE).count() == 1
    game = Game.objects.get(tournament_table__round=first, tournament_table__number=1)
    assert game.switches["cap_days"] == 2 and game.switches["cap_turns"] == 40
    play_round(t, 1)
    second = services.start_round(tournament_id=t.pk, number=2)
    assert second is not None
    # Nobody gets a second bye while others have none.
    assert Entry.objects.filter(tournament=t, byes__gt=1).count() == 0
    play_round(t, 2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=t, final_rank=1).user == t.winner


# A second whole event of each other format, a second or so: with the long runs.
@pytest.mark.slow
def test_an_elimination_and_a_roundrobin_run_on_the_real_pairing(staff: User) -> None:  # noqa: F811
    knockout = event(staff, format="elimination", advance=1, table_size=2, table_min=2, table_max=2)
    entered(knockout, players(4, "k"))
    number = 1
    while services.start_round(tournament_id=knockout.pk, number=number) is not None:
        play_round(knockout, number)
        knockout.refresh_from_db()
        if knockout.status == Tournament.Status.FINISHED:
            break
        number += 1
    assert knockout.status == Tournament.Status.FINISHED and number == 2
    groups = event(
        staff, format="roundrobin", rounds=1, group_size=2, group_final=1,
        table_size=2, table_min=2, table_max=2,
    )  # fmt: skip
    entered(groups, players(4, "g"))
    services.start_round(tournament_id=groups.pk, number=1)
    play_round(groups, 1)
    final = services.start_round(tournament_id=groups.pk, number=2)
    assert final is not None and final.final
    play_round(groups, 2)
    groups.refresh_from_db()
    assert groups.status == Tournament.Status.FINISHED and groups.winner is not None


def test_people_who_blocked_each_other_are_kept_apart_where_they_can_be(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, rounds=1, table_size=2, table_min=2, table_max=2)
    people = players(4)
    entered(t, people)
    # Unblocked, the first round seats the first two entries together.
    plain = plan_round(t, 1)
    first, second = plain.tables[0][0]
    a, b = Entry.objects.get(pk=first).user, Entry.objects.get(pk=second).user
    Block.objects.create(blocker=a, blocked=b)
    rnd = services.start_round(tournament_id=t.pk, number=1)
    assert rnd is not None
    for table in rnd.tables.all():
        seated = set(table.results.values_list("entry__user_id", flat=True))
        assert {a.pk, b.pk} - seated


def test_an_elimination_keeps_people_who_blocked_each_other_apart_within_its_seeding(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, format="elimination", advance=1, table_size=2, table_min=2, table_max=2)
    entered(t, players(4, "e"))
    first, second = plan_round(t, 1).tables[0][0]
    a, b = Entry.objects.get(pk=first).user, Entry.objects.get(pk=second).user
    Block.objects.create(blocker=b, blocked=a)
    for table, _group in plan_round(t, 1).tables:
        assert {first, second} != set(table)


def test_round_robin_groups_put_people_who_blocked_each_other_apart(
    staff: User,  # noqa: F811
) -> None:
    t = event(
        staff, format="roundrobin", rounds=3, group_size=4,
        table_size=4, table_min=4, table_max=4,
    )  # fmt: skip
    entered(t, players(8, "r"))
    pks = sorted(Entry.objects.filter(tournament=t).values_list("pk", flat=True))
    plain = assign_groups(t, pks)
    a, b = [p for p in pks if plain[p] == plain[pks[0]]][:2]
    Block.objects.create(blocker=Entry.objects.get(pk=a).user, blocked=Entry.objects.get(pk=b).user)
    services.close_registration(tournament_id=t.pk)
    groups = dict(Entry.objects.filter(tournament=t).values_list("pk", "group"))
    assert groups[a] != groups[b]
    assert sorted(Counter(groups.values()).values()) == [4, 4]
